//! The result of analysing one position, as the table, the cache and the annotations use it.

use shogi_usi::Score;

/// One position's analysis: the engine's answer (or the evaluation a record's comment gave),
/// scores in the **side to move's** view as USI sends them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PosResult {
    /// The best move in USI, or `resign` / `win`; `None` when unknown (a comment without PV).
    pub best: Option<String>,
    /// The best line's score, side to move's view.
    pub score: Option<Score>,
    /// The best line's PV in USI (legal moves only: an engine's PV is cut at its first
    /// illegal move).
    pub pv: Vec<String>,
    /// Search depth.
    pub depth: Option<u32>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// The other multipv lines (2, 3, …): score and PV.
    pub others: Vec<(Option<Score>, Vec<String>)>,
    /// Something noticed but not fatal (a PV cut, the engine restarted and the search retried).
    pub warning: Option<String>,
    /// Why the position could not be analysed (never cached).
    pub error: Option<String>,
}

/// A score as text: `cp 34`, `mate 5`, `mate -4`, `mate 0` (mated now), `mate given`,
/// `mate +`, `mate -` (shogi-usi's [`Score`]'s display).
pub fn score_text(s: Score) -> String {
    s.to_string()
}

/// Reads [`score_text`] back.
pub fn parse_score(s: &str) -> Option<Score> {
    s.parse().ok()
}

impl PosResult {
    /// The result as JSON for the cache (errors are never stored).
    pub fn to_json(&self) -> String {
        let others: Vec<serde_json::Value> = self
            .others
            .iter()
            .map(|(s, pv)| serde_json::json!({"score": s.map(score_text), "pv": pv}))
            .collect();
        serde_json::json!({
            "best": self.best,
            "score": self.score.map(score_text),
            "pv": self.pv,
            "depth": self.depth,
            "nodes": self.nodes,
            "others": others,
            "warning": self.warning,
        })
        .to_string()
    }

    /// Reads [`PosResult::to_json`] back; `None` for anything else.
    pub fn from_json(text: &str) -> Option<PosResult> {
        let v: serde_json::Value = serde_json::from_str(text).ok()?;
        let strings = |v: &serde_json::Value| -> Option<Vec<String>> {
            v.as_array()?
                .iter()
                .map(|m| m.as_str().map(str::to_string))
                .collect()
        };
        let score = |v: &serde_json::Value| match v {
            serde_json::Value::Null => Some(None),
            serde_json::Value::String(s) => parse_score(s).map(Some),
            _ => None,
        };
        let mut others = Vec::new();
        for o in v.get("others")?.as_array()? {
            others.push((score(o.get("score")?)?, strings(o.get("pv")?)?));
        }
        Some(PosResult {
            best: v.get("best")?.as_str().map(str::to_string),
            score: score(v.get("score")?)?,
            pv: strings(v.get("pv")?)?,
            depth: v.get("depth")?.as_u64().and_then(|d| u32::try_from(d).ok()),
            nodes: v.get("nodes")?.as_u64(),
            others,
            warning: v.get("warning")?.as_str().map(str::to_string),
            error: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_round_trip() {
        let r = PosResult {
            best: Some("7g7f".into()),
            score: Some(Score::Mate { plies: -4 }),
            pv: vec!["7g7f".into(), "3c3d".into()],
            depth: Some(12),
            nodes: Some(10_001),
            others: vec![(Some(Score::Cp(-3)), vec!["2g2f".into()]), (None, vec![])],
            warning: Some("pv cut".into()),
            error: None,
        };
        assert_eq!(PosResult::from_json(&r.to_json()), Some(r));
        for s in [
            Score::Cp(-7),
            Score::Mate { plies: 0 },
            Score::MateGiven,
            Score::MateUnknown { winning: true },
            Score::MateUnknown { winning: false },
        ] {
            assert_eq!(parse_score(&score_text(s)), Some(s));
        }
        assert_eq!(PosResult::from_json("{}"), None);
        assert_eq!(PosResult::from_json("garbage"), None);
    }
}
