//! The evaluation graph of one game as a small SVG (no dependency): sente's view, one point
//! per position (ply 0 = the start), a gap where a position has no score; ply ticks, the
//! players' names at their edges, the moves classed mistake (悪手) and blunder (大悪手) marked
//! on the mover's point, and either view: centipawns clamped to ±`range` (mates at the edge)
//! or sente's win probability (the classifier's logistic). The annotated copies of
//! `shogi analyze` and Python's `shogitk.eval_graph` draw with it.

use crate::classify::Class;
use std::fmt::Write;

/// Width and height of the drawing area, in SVG units.
const W: f64 = 600.0;
const H: f64 = 200.0;
/// Margin around it (axis labels, names).
const M: f64 = 30.0;

/// What the vertical axis shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum View {
    /// Centipawns, clamped to ±`range`.
    Centipawns {
        /// The clamp (the edges of the drawing).
        range: i32,
    },
    /// Sente's win probability, 100 / (1 + exp(−cp / `coefficient`)) percent.
    WinRate {
        /// The logistic's scale in centipawns.
        coefficient: f64,
    },
}

/// One game's graph: what [`Graph::svg`] draws.
#[derive(Clone, Debug)]
pub struct Graph<'a> {
    /// The title (a tooltip, and the SVG's `<title>`).
    pub title: &'a str,
    /// Sente's and gote's names, written at the top and the bottom edge.
    pub players: [Option<&'a str>; 2],
    /// Sente-view scores in centipawns (mates already as ±cp): `scores[k]` is the position
    /// after ply k.
    pub scores: &'a [Option<i32>],
    /// The class of the move of each ply (`classes[k - 1]` is ply k's), where known.
    pub classes: &'a [Option<Class>],
    /// The vertical axis.
    pub view: View,
}

/// The x coordinate of `ply` among `n` positions.
fn x(ply: usize, n: usize) -> f64 {
    M + W * ply as f64 / (n.max(2) - 1) as f64
}

impl View {
    /// The value drawn for a sente-view score, from −1 (bottom) to 1 (top).
    fn unit(self, cp: i32) -> f64 {
        match self {
            View::Centipawns { range } => {
                let range = range.max(1);
                f64::from(cp.clamp(-range, range)) / f64::from(range)
            }
            View::WinRate { coefficient } => {
                let win = 1.0 / (1.0 + (-f64::from(cp) / coefficient).exp());
                2.0 * win - 1.0
            }
        }
    }

    /// The y coordinate of a sente-view score.
    fn y(self, cp: i32) -> f64 {
        M + H / 2.0 - self.unit(cp) * H / 2.0
    }

    /// The labels of the top, middle and bottom lines, and the axis's name.
    fn labels(self) -> [String; 4] {
        match self {
            View::Centipawns { range } => [
                format!("+{}", range.max(1)),
                "0".into(),
                format!("-{}", range.max(1)),
                format!("cp, clamped to ±{}", range.max(1)),
            ],
            View::WinRate { .. } => [
                "100%".into(),
                "50%".into(),
                "0%".into(),
                "win probability".into(),
            ],
        }
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The ply step between ticks: about ten ticks whatever the length, on round numbers.
fn tick_step(plies: usize) -> usize {
    [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000]
        .into_iter()
        .find(|s| plies / s <= 12)
        .unwrap_or(plies.max(1))
}

/// The SVG of `scores[k]`, the sente-view score of the position after ply k, titled `title`,
/// in centipawns clamped to ±`range` (a [`Graph`] with no names or classes).
pub fn svg(title: &str, scores: &[Option<i32>], range: i32) -> String {
    Graph {
        title,
        players: [None, None],
        scores,
        classes: &[],
        view: View::Centipawns { range },
    }
    .svg()
}

impl Graph<'_> {
    /// The SVG text.
    pub fn svg(&self) -> String {
        let view = self.view;
        let scores = self.scores;
        let n = scores.len();
        let mut s = String::with_capacity(1024 + 24 * n);
        let (width, height) = (W + 2.0 * M, H + 2.0 * M);
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="10">"#
        );
        let _ = writeln!(s, "<title>{}</title>", escape(self.title));
        let _ = writeln!(
            s,
            r##"<rect x="{M}" y="{M}" width="{W}" height="{H}" fill="#fff" stroke="#888"/>"##
        );
        let zero = M + H / 2.0;
        let _ = writeln!(
            s,
            r##"<line x1="{M}" y1="{zero}" x2="{}" y2="{zero}" stroke="#888" stroke-dasharray="4 3"/>"##,
            M + W
        );
        let [top, mid, bottom, axis] = view.labels();
        let _ = writeln!(
            s,
            r#"<text x="2" y="{}">{top}</text><text x="2" y="{}">{bottom}</text><text x="2" y="{}">{mid}</text>"#,
            M + 4.0,
            M + H + 4.0,
            zero + 4.0
        );
        self.ticks(&mut s, n);
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="end">{} plies, sente's view ({axis})</text>"#,
            M + W,
            M + H + 26.0,
            n.saturating_sub(1)
        );
        for (i, (name, y, mark)) in [("▲", M - 6.0, "sente"), ("△", M + H + 26.0, "gote")]
            .into_iter()
            .enumerate()
        {
            if let Some(player) = self.players[i] {
                let _ = writeln!(
                    s,
                    r#"<text x="{M}" y="{y}" class="{mark}">{name}{}</text>"#,
                    escape(player)
                );
            }
        }
        self.lines(&mut s, n);
        self.marks(&mut s, n);
        s.push_str("</svg>\n");
        s
    }

    /// A tick and its ply number under the axis every few plies.
    fn ticks(&self, s: &mut String, n: usize) {
        let plies = n.saturating_sub(1);
        if plies == 0 {
            return;
        }
        let step = tick_step(plies);
        let mut k = step;
        while k <= plies {
            let tx = x(k, n);
            let _ = writeln!(
                s,
                r##"<line x1="{tx:.1}" y1="{}" x2="{tx:.1}" y2="{}" stroke="#888"/><text x="{tx:.1}" y="{}" text-anchor="middle" class="tick">{k}</text>"##,
                M + H,
                M + H + 4.0,
                M + H + 14.0
            );
            k += step;
        }
    }

    /// One polyline per run of positions with a score.
    fn lines(&self, s: &mut String, n: usize) {
        let view = self.view;
        let mut run: Vec<(usize, i32)> = Vec::new();
        let flush = |s: &mut String, run: &mut Vec<(usize, i32)>| {
            if run.is_empty() {
                return;
            }
            let plies: Vec<String> = run.iter().map(|(k, _)| k.to_string()).collect();
            let points: Vec<String> = run
                .iter()
                .map(|&(k, v)| format!("{:.1},{:.1}", x(k, n), view.y(v)))
                .collect();
            let _ = writeln!(
                s,
                r##"<polyline fill="none" stroke="#c33" stroke-width="1.5" data-plies="{}" points="{}"/>"##,
                plies.join(" "),
                points.join(" ")
            );
            run.clear();
        };
        for (k, v) in self.scores.iter().enumerate() {
            match v {
                Some(v) => run.push((k, *v)),
                None => flush(s, &mut run),
            }
        }
        flush(s, &mut run);
    }

    /// A circle on the point after each move classed mistake or blunder (a blunder larger and
    /// darker), with the ply and the class as a tooltip.
    fn marks(&self, s: &mut String, n: usize) {
        for (i, class) in self.classes.iter().enumerate() {
            let ply = i + 1;
            let (r, fill) = match class {
                Some(Class::Blunder) => (5.0, "#900"),
                Some(Class::Mistake) => (3.5, "#e80"),
                _ => continue,
            };
            let Some(Some(cp)) = self.scores.get(ply) else {
                continue;
            };
            let name = class.map(Class::name).unwrap_or_default();
            let _ = writeln!(
                s,
                r#"<circle cx="{:.1}" cy="{:.1}" r="{r}" fill="{fill}" data-ply="{ply}" class="{name}"><title>{ply} {name}</title></circle>"#,
                x(ply, n),
                self.view.y(*cp)
            );
        }
    }
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

    #[test]
    fn ticks_names_marks_and_the_win_view() {
        let scores: Vec<Option<i32>> = (0..=40).map(|k| Some(k * 50 - 1000)).collect();
        let mut classes = vec![None; 40];
        classes[9] = Some(Class::Blunder); // ply 10
        classes[19] = Some(Class::Mistake); // ply 20
        classes[29] = Some(Class::Inaccuracy); // not marked
        let g = Graph {
            title: "t",
            players: [Some("羽生 <善治>"), Some("B")],
            scores: &scores,
            classes: &classes,
            view: View::Centipawns { range: 2000 },
        };
        let svg = g.svg();
        // Ticks every 5 plies over 40 plies: 5, 10, ..., 40.
        let ticks: Vec<&str> = svg
            .split(r#"class="tick">"#)
            .skip(1)
            .map(|t| &t[..t.find('<').unwrap()])
            .collect();
        assert_eq!(ticks, ["5", "10", "15", "20", "25", "30", "35", "40"]);
        assert!(svg.contains("▲羽生 &lt;善治&gt;") && svg.contains("△B"));
        assert_eq!(svg.matches("<circle").count(), 2);
        assert!(svg.contains(r#"data-ply="10" class="blunder""#));
        assert!(svg.contains(r#"data-ply="20" class="mistake""#));
        // The blunder's mark sits on its point: ply 10 scores -500 of ±2000.
        let cy = M + H / 2.0 + 0.25 * H / 2.0;
        assert!(svg.contains(&format!(r#"cy="{cy:.1}""#)), "{svg}");
        // The win view: 0 cp is the middle, +600 cp with c = 600 is 73.1 %.
        let win = View::WinRate { coefficient: 600.0 };
        assert!((win.y(0) - (M + H / 2.0)).abs() < 1e-9);
        let want = M + H / 2.0 - (2.0 * 0.731_058_578_6 - 1.0) * H / 2.0;
        assert!((win.y(600) - want).abs() < 1e-6);
        assert!(win.y(100_000) >= M - 1e-9 && win.y(-100_000) <= M + H + 1e-9);
        let svg = Graph { view: win, ..g }.svg();
        assert!(svg.contains("win probability") && svg.contains(">100%<"));
    }

    #[test]
    fn tick_steps_stay_about_ten() {
        for plies in [1, 7, 12, 13, 60, 150, 611, 5000] {
            let step = tick_step(plies);
            assert!(plies / step <= 12 && plies / step >= 1, "{plies}: {step}");
        }
    }
}
