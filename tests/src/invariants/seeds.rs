//! Seeds: the inputs the fuzzers start from, gathered from the repository and ../shared.

/// The inputs the seeds are made from: records (whole files) and lines (SFEN and USI
/// position lines).
#[derive(Default)]
pub struct SeedSources {
    /// Whole record files, with their paths.
    pub records: Vec<(std::path::PathBuf, Vec<u8>)>,
    /// Lines of the USI and SFEN files and SFENs of the perft suites.
    pub lines: Vec<Vec<u8>>,
}

/// Every file below `dir` (recursively), except the notes and tables beside records (`.tsv`,
/// `.md`, `.txt`, `.suite`).
pub fn files_under(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files_under(&p, out);
        } else if !matches!(
            p.extension().and_then(|e| e.to_str()),
            Some("tsv" | "md" | "txt" | "suite")
        ) {
            out.push(p);
        }
    }
}

/// The seed sources of the workspace at `root`: samples/, tests/fixtures/ and, when it is
/// there, ../shared (its corpus, and the perft suites' first positions).
pub fn seed_sources(root: &std::path::Path) -> SeedSources {
    let mut files = Vec::new();
    files_under(&root.join("samples"), &mut files);
    files_under(&root.join("tests/fixtures"), &mut files);
    files_under(&root.join("../shared/corpus"), &mut files);
    files.sort();
    let mut sources = SeedSources::default();
    for f in files {
        let Ok(data) = std::fs::read(&f) else {
            continue;
        };
        if matches!(f.extension().and_then(|e| e.to_str()), Some("usi" | "sfen")) {
            sources
                .lines
                .extend(data.split(|&b| b == b'\n').map(<[u8]>::to_vec));
        }
        sources.records.push((f, data));
    }
    for suite in ["standard.suite", "minishogi.suite"] {
        let path = root.join("../shared/perft").join(suite);
        if let Ok(text) = std::fs::read_to_string(path) {
            sources.lines.extend(
                text.lines()
                    .filter(|l| !l.starts_with('#'))
                    .take(40)
                    .map(|l| l.split(';').next().unwrap_or("").trim().as_bytes().to_vec()),
            );
        }
    }
    sources.lines.retain(|l| !l.is_empty());
    sources
}

fn prefixed(prefix: &[u8], data: &[u8]) -> Vec<u8> {
    let mut v = prefix.to_vec();
    v.extend_from_slice(data);
    v
}

/// The seed inputs of the target `name`: the sources with the leading bytes the target
/// reads as its settings (see each check).
pub fn seeds(name: &str, sources: &SeedSources) -> Vec<Vec<u8>> {
    let records = || sources.records.iter().map(|r| r.1.clone());
    let lines = || sources.lines.iter();
    match name {
        "sfen" => lines().cloned().collect(),
        "usi_position" => lines()
            .flat_map(|l| [prefixed(&[0], l), prefixed(&[1], l)])
            .collect(),
        "read_usi" => records()
            .map(|r| prefixed(&[0], &r))
            .chain(lines().flat_map(|l| [prefixed(&[0], l), prefixed(&[1], l)]))
            .collect(),
        // Detected format, 16 bytes at a time, chunks of 65 bytes.
        "streaming" => records().map(|r| prefixed(&[123, 4], &r)).collect(),
        // No format hint.
        "write" => records().map(|r| prefixed(&[6], &r)).collect(),
        // The built-in rules, and some of their tags alone.
        "tag_rules" => {
            let text = shogi_openings::BUILTIN_RULES;
            let mut out = vec![text.as_bytes().to_vec()];
            out.extend(text.split("\n\n").map(|block| block.as_bytes().to_vec()));
            out
        }
        "play" => lines()
            .map(|l| {
                let mut v = prefixed(&[0], l);
                v.extend_from_slice(b"\n\x01\x07\x1f\x63\x02\x11\x05\x2a");
                v
            })
            .collect(),
        "usi_line" => [
            "id name Fairy-Stockfish 11.1 LB 64",
            "option name USI_Hash type spin default 16 min 1 max 1024",
            "info depth 8 seldepth 11 multipv 1 score cp 161 nodes 9188 nps 399478 time 23 pv 7g7f 3c3d 2g2f",
            "info depth 3 score mate -4 lowerbound pv 7g7f 3c3d 8h2b+ 3a2b B*4e",
            "info score mate + pv 7g7f",
            "info depth 0 score mate 0",
            "info string hello world",
            "bestmove 7g7f ponder 3c3d",
            "bestmove resign",
            "checkmate 2h1i 1h2g 3i2h",
            "readyok",
        ]
        .iter()
        .map(|l| l.as_bytes().to_vec())
        .collect(),
        "eval_comments" => [
            "\x00互角\n#評価値=35\n#読み筋=△３四歩▲２六歩\n#深さ=12",
            "\x00**評価値=210\n**読み筋=▲７六歩△３四歩\n#詰み=後手勝ち:7手",
            "\x00* 113 -3334FU +2726FU\n* -35 +2726FU",
            "\x00*対局 候補1 時間 00:01.0 深さ 10/17 ノード数 49691 評価値 34 読み筋 △３四歩(33) ▲２二角成(88)",
            "\x00*解析 0 候補1 評価値 -詰5 読み筋 ▲２二角成(88) △同　銀(31)",
            "\x00#指し手[72]▲７六歩  △３四歩  ▲２二角成\n#形勢[-40]",
            "\x01 30 +7776FU -3334FU\n -20 -3334FU +8822UM",
        ]
        .iter()
        .map(|l| l.as_bytes().to_vec())
        .collect(),
        _ => records().collect(),
    }
}
