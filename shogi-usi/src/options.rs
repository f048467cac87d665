//! Engine options as advertised by `option` lines, and the check of a value against one.

use std::fmt;

/// One option an engine offered (`option name … type …`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// The name as printed (may contain spaces: fairy-stockfish 11.1 prints `Skill Level`).
    pub name: String,
    /// Its type, default and range.
    pub kind: OptionKind,
}

/// An option's type with its default and allowed values. `<empty>` defaults are `Some("")`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `check`: `true` or `false`.
    Check {
        /// The default.
        default: Option<bool>,
    },
    /// `spin`: an integer in `min..=max`.
    Spin {
        /// The default.
        default: Option<i64>,
        /// The smallest value.
        min: Option<i64>,
        /// The largest value.
        max: Option<i64>,
    },
    /// `combo`: one of `vars`.
    Combo {
        /// The default.
        default: Option<String>,
        /// The choices.
        vars: Vec<String>,
    },
    /// `button`: no value.
    Button,
    /// `string`: any text.
    String {
        /// The default.
        default: Option<String>,
    },
    /// `filename`: a path (any text).
    Filename {
        /// The default.
        default: Option<String>,
    },
}

impl OptionKind {
    /// The USI type word.
    pub fn type_name(&self) -> &'static str {
        match self {
            OptionKind::Check { .. } => "check",
            OptionKind::Spin { .. } => "spin",
            OptionKind::Combo { .. } => "combo",
            OptionKind::Button => "button",
            OptionKind::String { .. } => "string",
            OptionKind::Filename { .. } => "filename",
        }
    }
}

impl OptionSpec {
    /// Checks `value` against the option's type and returns the text to send (`None` for a
    /// button, which takes no value). Case is ignored for `check` and `combo` values (USI
    /// values are not case sensitive); the engine's own spelling of a combo value is sent.
    ///
    /// ```
    /// use shogi_usi::{OptionKind, OptionSpec};
    ///
    /// let hash = OptionSpec {
    ///     name: "Hash".into(),
    ///     kind: OptionKind::Spin { default: Some(16), min: Some(1), max: Some(1024) },
    /// };
    /// assert_eq!(hash.check_value("64").unwrap().as_deref(), Some("64"));
    /// assert!(hash.check_value("0").is_err());
    /// ```
    pub fn check_value(&self, value: &str) -> Result<Option<String>, String> {
        let v = value.trim();
        match &self.kind {
            OptionKind::Check { .. } => {
                if v.eq_ignore_ascii_case("true") {
                    Ok(Some("true".into()))
                } else if v.eq_ignore_ascii_case("false") {
                    Ok(Some("false".into()))
                } else {
                    Err(format!("`{value}` is not true or false"))
                }
            }
            OptionKind::Spin { min, max, .. } => {
                let n: i64 = v
                    .parse()
                    .map_err(|_| format!("`{value}` is not an integer"))?;
                if min.is_some_and(|m| n < m) || max.is_some_and(|m| n > m) {
                    return Err(format!("{n} is out of range {}", self.range_text()));
                }
                Ok(Some(n.to_string()))
            }
            OptionKind::Combo { vars, .. } => match vars.iter().find(|c| c.eq_ignore_ascii_case(v))
            {
                Some(c) => Ok(Some(c.clone())),
                None => Err(format!("`{value}` is not one of {}", vars.join(", "))),
            },
            OptionKind::Button => {
                if v.is_empty() {
                    Ok(None)
                } else {
                    Err(format!("a button takes no value (got `{value}`)"))
                }
            }
            OptionKind::String { .. } | OptionKind::Filename { .. } => {
                if value.contains(['\n', '\r']) {
                    Err("a value cannot hold a line break".into())
                } else if v.is_empty() {
                    Ok(Some("<empty>".into()))
                } else {
                    Ok(Some(v.to_owned()))
                }
            }
        }
    }

    fn range_text(&self) -> String {
        match &self.kind {
            OptionKind::Spin { min, max, .. } => format!(
                "{}..{}",
                min.map_or("".into(), |m| m.to_string()),
                max.map_or("".into(), |m| m.to_string())
            ),
            _ => String::new(),
        }
    }

    /// The default as text, if the engine gave one (`""` for `<empty>`).
    pub fn default_text(&self) -> Option<String> {
        match &self.kind {
            OptionKind::Check { default } => default.map(|b| b.to_string()),
            OptionKind::Spin { default, .. } => default.map(|n| n.to_string()),
            OptionKind::Combo { default, .. }
            | OptionKind::String { default }
            | OptionKind::Filename { default } => default.clone(),
            OptionKind::Button => None,
        }
    }
}

impl fmt::Display for OptionSpec {
    /// `Name (spin 1..1024, default 16)`, for lists in error messages.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}", self.name, self.kind.type_name())?;
        match &self.kind {
            OptionKind::Spin { .. } => write!(f, " {}", self.range_text())?,
            OptionKind::Combo { vars, .. } => write!(f, " {}", vars.join("|"))?,
            _ => {}
        }
        if let Some(d) = self.default_text() {
            write!(f, ", default {}", if d.is_empty() { "<empty>" } else { &d })?;
        }
        f.write_str(")")
    }
}

/// Finds an option by name: the exact name first, then ignoring ASCII case.
pub fn find_option<'a>(options: &'a [OptionSpec], name: &str) -> Option<&'a OptionSpec> {
    options
        .iter()
        .find(|o| o.name == name)
        .or_else(|| options.iter().find(|o| o.name.eq_ignore_ascii_case(name)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str, kind: OptionKind) -> OptionSpec {
        OptionSpec {
            name: name.into(),
            kind,
        }
    }

    #[test]
    fn values_checked_by_type() {
        let check = spec(
            "Ponder",
            OptionKind::Check {
                default: Some(false),
            },
        );
        assert_eq!(check.check_value("TRUE"), Ok(Some("true".into())));
        assert!(check.check_value("yes").is_err());
        let spin = spec(
            "Threads",
            OptionKind::Spin {
                default: Some(1),
                min: Some(1),
                max: Some(512),
            },
        );
        assert_eq!(spin.check_value(" 2 "), Ok(Some("2".into())));
        assert_eq!(
            spin.check_value("513"),
            Err("513 is out of range 1..512".into())
        );
        assert_eq!(
            spin.check_value("two"),
            Err("`two` is not an integer".into())
        );
        let combo = spec(
            "UCI_Variant",
            OptionKind::Combo {
                default: Some("shogi".into()),
                vars: vec!["shogi".into(), "minishogi".into()],
            },
        );
        assert_eq!(combo.check_value("MiniShogi"), Ok(Some("minishogi".into())));
        assert_eq!(
            combo.check_value("chess"),
            Err("`chess` is not one of shogi, minishogi".into())
        );
        let button = spec("Clear Hash", OptionKind::Button);
        assert_eq!(button.check_value(""), Ok(None));
        assert!(button.check_value("1").is_err());
        let s = spec("BookFile", OptionKind::String { default: None });
        assert_eq!(s.check_value(""), Ok(Some("<empty>".into())));
        assert!(s.check_value("a\nb").is_err());
    }

    #[test]
    fn lookup_and_display() {
        let opts = vec![
            spec(
                "Hash",
                OptionKind::Spin {
                    default: Some(16),
                    min: Some(1),
                    max: Some(1024),
                },
            ),
            spec("hash", OptionKind::Button),
            spec(
                "Skill Level",
                OptionKind::Spin {
                    default: Some(20),
                    min: Some(-20),
                    max: Some(20),
                },
            ),
        ];
        assert_eq!(
            find_option(&opts, "hash").map(|o| o.kind.type_name()),
            Some("button")
        );
        assert_eq!(
            find_option(&opts, "HASH").map(|o| o.kind.type_name()),
            Some("spin")
        );
        assert_eq!(
            find_option(&opts, "skill level").map(|o| o.name.as_str()),
            Some("Skill Level")
        );
        assert!(find_option(&opts, "Skill").is_none());
        assert_eq!(opts[0].to_string(), "Hash (spin 1..1024, default 16)");
        assert_eq!(
            opts[2].to_string(),
            "Skill Level (spin -20..20, default 20)"
        );
    }
}
