//! The evaluation graph of one game as a small SVG (no dependency): sente's view, scores
//! clamped to ±`range` centipawns (mates at the edge), one point per position (ply 0 = the
//! start), a gap where a position has no score.

use std::fmt::Write;

/// Width and height of the drawing area, in SVG units.
const W: f64 = 600.0;
const H: f64 = 200.0;
/// Margin around it (axis labels).
const M: f64 = 30.0;

/// The x coordinate of `ply` among `n` positions.
fn x(ply: usize, n: usize) -> f64 {
    M + W * ply as f64 / (n.max(2) - 1) as f64
}

/// The y coordinate of a clamped sente-view score.
fn y(cp: i32, range: i32) -> f64 {
    let v = f64::from(cp.clamp(-range, range)) / f64::from(range);
    M + H / 2.0 - v * H / 2.0
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The SVG of `scores[k]`, the sente-view score (mates already as ±cp) of the position
/// after ply k (k = 0: the start), titled `title`.
pub fn svg(title: &str, scores: &[Option<i32>], range: i32) -> String {
    let range = range.max(1);
    let n = scores.len();
    let mut s = String::with_capacity(256 + 16 * n);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}" font-family="sans-serif" font-size="10">"#,
        W + 2.0 * M,
        H + 2.0 * M,
        W + 2.0 * M,
        H + 2.0 * M
    );
    let _ = writeln!(s, "<title>{}</title>", escape(title));
    let _ = writeln!(
        s,
        r##"<rect x="{M}" y="{M}" width="{W}" height="{H}" fill="#fff" stroke="#888"/>"##
    );
    let zero = y(0, range);
    let _ = writeln!(
        s,
        r##"<line x1="{M}" y1="{zero}" x2="{}" y2="{zero}" stroke="#888" stroke-dasharray="4 3"/>"##,
        M + W
    );
    let _ = writeln!(
        s,
        r#"<text x="2" y="{}">+{range}</text><text x="2" y="{}">-{range}</text><text x="2" y="{}">0</text>"#,
        M + 4.0,
        M + H + 4.0,
        zero + 4.0
    );
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="end">{} plies, sente's view (cp, clamped to ±{range})</text>"#,
        M + W,
        M + H + 20.0,
        n.saturating_sub(1)
    );
    // One polyline per run of positions with a score.
    let mut run: Vec<(usize, i32)> = Vec::new();
    let flush = |s: &mut String, run: &mut Vec<(usize, i32)>| {
        if run.is_empty() {
            return;
        }
        let plies: Vec<String> = run.iter().map(|(k, _)| k.to_string()).collect();
        let points: Vec<String> = run
            .iter()
            .map(|&(k, v)| format!("{:.1},{:.1}", x(k, n), y(v, range)))
            .collect();
        let _ = writeln!(
            s,
            r##"<polyline fill="none" stroke="#c33" stroke-width="1.5" data-plies="{}" points="{}"/>"##,
            plies.join(" "),
            points.join(" ")
        );
        run.clear();
    };
    for (k, v) in scores.iter().enumerate() {
        match v {
            Some(v) => run.push((k, *v)),
            None => flush(&mut s, &mut run),
        }
    }
    flush(&mut s, &mut run);
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The (ply, y) points of every polyline, read back from the text.
    fn points(svg: &str) -> Vec<(usize, f64)> {
        let mut out = Vec::new();
        for el in svg.split("<polyline").skip(1) {
            let attr = |name: &str| {
                let start = el.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
                let end = start + el[start..].find('"').unwrap();
                el[start..end].to_string()
            };
            let plies = attr("data-plies");
            let pts = attr("points");
            for (p, xy) in plies.split(' ').zip(pts.split(' ')) {
                let (_, yv) = xy.split_once(',').unwrap();
                out.push((p.parse().unwrap(), yv.parse().unwrap()));
            }
        }
        out
    }

    #[test]
    fn points_read_back_clamped_with_gaps() {
        let scores = [
            Some(0),
            Some(1000),
            None,
            Some(-5000),
            Some(2000),
            Some(-200),
        ];
        let svg = svg("a <game>", &scores, 2000);
        assert!(svg.starts_with("<svg ") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("<title>a &lt;game&gt;</title>"));
        assert_eq!(svg.matches("<polyline").count(), 2, "a gap at ply 2");
        let got = points(&svg);
        let mid = M + H / 2.0;
        let want = [
            (0, mid),
            (1, mid - H / 4.0),
            (3, M + H), // -5000 clamped to -2000: the bottom
            (4, M),     // +2000: the top
            (5, mid + H / 20.0),
        ];
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(want) {
            assert_eq!(g.0, w.0);
            assert!((g.1 - w.1).abs() < 0.06, "{g:?} vs {w:?}");
        }
    }

    #[test]
    fn empty_game_is_still_an_svg() {
        let s = svg("empty", &[], 2000);
        assert!(!s.contains("<polyline"));
        assert!(s.contains("0 plies"));
    }
}
