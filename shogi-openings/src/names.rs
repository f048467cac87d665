//! Name spellings: the key a name is looked up by, and the nearest names for a suggestion.

/// The lookup key of a name: full-width ASCII to half-width, no ▲△☗☖ or spaces, katakana ニ
/// as 二, ASCII lower case. Only for lookup: tags keep their canonical spelling for output.
pub fn normalize(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '▲' | '△' | '☗' | '☖') && !c.is_whitespace())
        .map(|c| match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            'ニ' => '二',
            _ => c,
        })
        .flat_map(|c| c.to_lowercase())
        .collect()
}

/// The spellings a name is also tried as: without or with the suffixes 戦法, 囲い, 流.
pub fn variants(key: &str) -> Vec<String> {
    let mut out = vec![key.to_string()];
    for suffix in ["戦法", "囲い", "流"] {
        match key.strip_suffix(suffix) {
            Some(stem) if !stem.is_empty() => out.push(stem.to_string()),
            _ => out.push(format!("{key}{suffix}")),
        }
    }
    out
}

/// Edit distance in characters (Levenshtein).
pub fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// Up to `n` of `names` nearest to `query`: names containing it (or contained in it) first,
/// then by edit distance, at most half the query's length away.
pub fn nearest<'a>(query: &str, names: impl Iterator<Item = &'a str>, n: usize) -> Vec<&'a str> {
    let q = normalize(query);
    let limit = q.chars().count().div_ceil(2).max(1);
    let mut scored: Vec<(usize, &str)> = names
        .filter_map(|name| {
            let k = normalize(name);
            let d = if !q.is_empty() && (k.contains(&q) || q.contains(&k)) {
                0
            } else {
                distance(&q, &k)
            };
            (d <= limit).then_some((d, name))
        })
        .collect();
    scored.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then_with(|| a.1.chars().count().cmp(&b.1.chars().count()))
    });
    let mut out: Vec<&str> = Vec::new();
    for (_, name) in scored {
        if !out.contains(&name) {
            out.push(name);
        }
        if out.len() == n {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings() {
        assert_eq!(normalize("▲４六金戦法"), "4六金戦法");
        assert_eq!(normalize("2手目△3ニ飛戦法"), normalize("2手目△3二飛戦法"));
        assert!(variants("美濃囲い").contains(&"美濃".to_string()));
        assert_eq!(distance("四間飛車", "三間飛車"), 1);
        let names = ["四間飛車", "三間飛車", "中飛車", "矢倉"];
        assert_eq!(nearest("四間", names.iter().copied(), 2), vec!["四間飛車"]);
        assert_eq!(
            nearest("五間飛車", names.iter().copied(), 2),
            vec!["四間飛車", "三間飛車"]
        );
    }
}
