//! CSA standard record format V2.2 / V3.0: reading (one game at a time; the reader splits
//! games at `/`) and writing.

use crate::holds::{EndingHolds, HeaderHolds, Holds};

mod read;
pub(crate) mod write;

pub(crate) use read::parse;

/// The `'key:value` comment lines CSA records carry that are header entries, not comments:
/// Floodgate's ratings (`'black_rate:NAME:RATING`, `'white_rate:NAME:RATING`). The reader
/// keeps them as header entries of these keys (the value is what follows the first `:`);
/// the writer writes them back as the same lines.
pub(crate) const COMMENT_KEYS: [&str; 2] = ["black_rate", "white_rate"];

/// The key and value of a `'key:value` line whose key is one of [`COMMENT_KEYS`].
pub(crate) fn comment_entry(line: &str) -> Option<(&'static str, &str)> {
    let rest = line.strip_prefix('\'')?;
    COMMENT_KEYS.iter().find_map(|&k| {
        let v = rest.strip_prefix(k)?.strip_prefix(':')?;
        Some((k, v))
    })
}

/// What CSA holds ([`crate::losses`] asks): one line of play, no bookmarks, the endings
/// it has words for.
pub(crate) const HOLDS: Holds = Holds {
    variations: false,
    comments: true,
    times: true,
    subsecond_times: true,
    bookmarks: false,
    header: HeaderHolds::All,
    endings: EndingHolds::Csa,
    foul_moves: true,
};

#[cfg(test)]
mod tests {
    use crate::{Format, HeaderKey, ReadOptions, read_str};

    #[test]
    fn floodgate_ratings_are_header_entries_that_write_back() {
        let csa = "V2\nN+a\nN-b\n'black_rate:a+1:3382.0\n'white_rate:b+2:3613.5 \n'a comment\nPI\n+\n+7776FU\n%TORYO\n";
        let r = read_str(csa, ReadOptions::with_format(Format::Csa)).unwrap();
        let get = |k: &str| r.header.get(&HeaderKey::Other(k.into()));
        assert_eq!(get("black_rate"), Some("a+1:3382.0"));
        assert_eq!(get("white_rate"), Some("b+2:3613.5"));
        let written = crate::write(&r, Format::Csa);
        assert!(
            written.contains("\n'black_rate:a+1:3382.0\n'white_rate:b+2:3613.5\n"),
            "{written}"
        );
        let back = read_str(&written, ReadOptions::with_format(Format::Csa)).unwrap();
        assert_eq!(back.header, r.header);
        // Not a known key: still a comment line, not kept.
        assert!(
            !r.header.entries.iter().any(|e| e.value.contains("comment")),
            "{:?}",
            r.header
        );
    }

    /// Whole seconds read as their decimal spelling reads (`T12` as `T12.0`), from one digit
    /// to nine; longer, spaced or fractional values go through the decimal reading.
    #[test]
    fn whole_second_times_read_as_decimal_ones() {
        let times = |ts: &[&str]| {
            let mut csa = String::from("V2.2\nPI\n+\n");
            for (k, t) in ts.iter().enumerate() {
                let mv = ["+7776FU", "-3334FU", "+2726FU", "-8384FU"][k % 4];
                csa.push_str(&format!("{mv}\n{t}\n"));
            }
            let r = read_str(&csa, ReadOptions::with_format(Format::Csa));
            r.map(|r| {
                r.moves
                    .moves
                    .iter()
                    .map(|m| m.time.and_then(|t| t.spent_ms))
                    .collect::<Vec<_>>()
            })
            .map_err(|e| e.to_string())
        };
        for (whole, decimal) in [
            (
                vec!["T0", "T7", "T012", "T59"],
                vec!["T0.0", "T7.0", "T12.0", "T59.0"],
            ),
            (
                vec!["T999999999", "T100000000", "T1", "T00000000"],
                vec!["T999999999.0", "T100000000.0", "T1.000", "T0.0"],
            ),
        ] {
            let got = times(&whole).unwrap();
            assert_eq!(got, times(&decimal).unwrap());
            assert!(got.iter().all(Option::is_some), "{got:?}");
        }
        assert_eq!(
            times(&["T 12", "T1.5"]).unwrap(),
            [Some(12_000), Some(1_500)]
        );
        // Ten digits is 10^9 s or more: out of range, as before.
        assert!(times(&["T1000000000"]).unwrap_err().contains("bad time"));
        // A time before any move: ignored with a warning, whole or not.
        let r = read_str(
            "PI\n+\nT12\n+7776FU\n",
            ReadOptions::with_format(Format::Csa),
        )
        .unwrap();
        assert_eq!(r.moves.moves[0].time, None);
        assert!(
            r.diagnostics
                .iter()
                .any(|d| d.message.contains("time before the first move"))
        );
    }

    /// A statement after commas is located at its own column.
    #[test]
    fn statement_after_commas_is_located() {
        let r = read_str(
            "PI\n+\n+7776FU,T3,-3334XX\n",
            ReadOptions::with_format(Format::Csa),
        );
        let e = r.unwrap_err();
        assert_eq!((e.location.line, e.location.column), (3, 12), "{e}");
    }

    /// Move and time lines read as the same lines with a space before them, which the
    /// general path reads: the same moves, times, warnings and errors.
    #[test]
    fn plain_move_lines_read_as_spaced_ones() {
        let lines = [
            "+7776FU",
            "-3334FU,T12",
            "T7",
            "+8822UM,T0",
            "T123456789",
            "-2288GI",
            "T1234567890",
            "+7776FU,T",
            "-3334FU,T1.5",
            "+0055KA,T3",
            "+77\u{ff17}6FU",
            "+7776FX",
            "+7776FU,T12,",
            "+7776FUX",
            "T",
            "T1e3",
            "+5958OU,T12 ",
            "%TORYO",
            "+7776FU,T5",
        ];
        let read = |text: &str| {
            let r = read_str(text, ReadOptions::with_format(Format::Csa));
            match r {
                Ok(r) => {
                    let moves: Vec<_> = r.moves.moves.iter().map(|m| (m.mv, m.time)).collect();
                    let warnings: Vec<_> =
                        r.diagnostics.iter().map(|d| d.message.clone()).collect();
                    Ok((moves, warnings))
                }
                Err(e) => Err((e.kind, e.message.clone(), e.location.line)),
            }
        };
        let mut results = 0;
        for start in 0..lines.len() {
            for len in 1..=4.min(lines.len() - start) {
                let body = &lines[start..start + len];
                let plain: String = body.iter().map(|l| format!("{l}\n")).collect();
                let spaced: String = body.iter().map(|l| format!(" {l}\n")).collect();
                let head = "PI\n+\n+2726FU\n-8384FU\n";
                let a = read(&format!("{head}{plain}"));
                assert_eq!(a, read(&format!("{head}{spaced}")), "{body:?}");
                results += usize::from(a.is_ok());
            }
        }
        assert!(results > 10, "{results}");
    }
}
