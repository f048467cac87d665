//! Self-contained HTML pages: our template, style and scripts (files of this crate, built in
//! with `include_str!`) with the page's data embedded as JSON. No page makes an external
//! request: no CDN, no web font (the system's fonts draw the kanji).

use crate::game::GameView;
use serde::Serialize;

/// The page skeleton: `{{title}}`, `{{css}}`, `{{data}}`, `{{js}}` are filled in.
const TEMPLATE: &str = include_str!("../assets/page.html");
/// The style every page shares.
pub const CSS: &str = include_str!("../assets/shogi.css");
/// Drawing: the board, hands, the evaluation graph (shared by the viewer and the server).
pub const DRAW_JS: &str = include_str!("../assets/draw.js");
/// The game viewer: move list, comments, tags, keys, graph clicks.
pub const VIEWER_JS: &str = include_str!("../assets/viewer.js");
/// The index of a folder's games.
const INDEX_JS: &str = include_str!("../assets/index.js");
/// Shows the page's data in the viewer.
const MOUNT_JS: &str = "Viewer.mount(document.getElementById('app'), JSON.parse(document.getElementById('data').textContent));";

/// `s` with the five characters HTML gives meaning to escaped.
pub fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// `value` as JSON that can sit inside a `<script>` element: every `<` (which JSON holds only
/// inside strings) written `\u003c`, so no `</script>` or `<!--` can end or open anything.
pub fn script_json<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value)
        .unwrap_or_else(|_| "null".into())
        .replace('<', "\\u003c")
}

/// A whole page: `title`, the data (embedded as JSON under the id `data`) and the scripts
/// run in order after it.
pub fn page<T: Serialize + ?Sized>(title: &str, data: &T, scripts: &[&str]) -> String {
    let js = scripts.join("\n");
    let mut out = String::with_capacity(TEMPLATE.len() + CSS.len() + js.len() + 4096);
    // One pass over the template, so nothing filled in is read as a placeholder again.
    let mut rest = TEMPLATE;
    while let Some(i) = rest.find("{{") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 2..];
        let Some(j) = after.find("}}") else {
            out.push_str(&rest[i..]);
            rest = "";
            break;
        };
        match &after[..j] {
            "title" => out.push_str(&escape_html(title)),
            "css" => out.push_str(CSS),
            "data" => out.push_str(&script_json(data)),
            "js" => out.push_str(&js),
            other => {
                out.push_str("{{");
                out.push_str(other);
                out.push_str("}}");
            }
        }
        rest = &after[j + 2..];
    }
    out.push_str(rest);
    out
}

/// The viewer page of one game.
pub fn game_page(view: &GameView) -> String {
    page(&view.title, view, &[DRAW_JS, VIEWER_JS, MOUNT_JS])
}

/// One line of an index page: a game's page and what to show of it.
#[derive(Clone, Debug, Serialize)]
pub struct IndexEntry {
    /// The page's file name, relative to the index.
    pub href: String,
    /// The game's title (players, or file name).
    pub title: String,
    /// Its date, when the header gives one.
    pub date: Option<String>,
    /// Moves and result.
    pub result: String,
}

/// An index page listing `games`.
pub fn index_page(title: &str, games: &[IndexEntry]) -> String {
    #[derive(Serialize)]
    struct Index<'a> {
        title: &'a str,
        games: &'a [IndexEntry],
    }
    page(title, &Index { title, games }, &[DRAW_JS, INDEX_JS])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_cannot_close_the_script() {
        let json = script_json(&vec!["</script><script>alert(1)</script>", "<!--"]);
        assert!(!json.contains('<'), "{json}");
        let back: Vec<String> = serde_json::from_str(&json).unwrap();
        assert_eq!(back[0], "</script><script>alert(1)</script>");
        let html = page("<b>&", &json, &[]);
        assert!(html.contains("&lt;b&gt;&amp;"));
        assert!(!html.contains("</script><script>alert"));
    }

    #[test]
    fn pages_make_no_external_request() {
        // The SVG namespace is a name, not a request.
        let html = page("t", &0, &[DRAW_JS, VIEWER_JS, INDEX_JS])
            .replace("http://www.w3.org/2000/svg", "");
        for bad in [
            "http://", "https://", "//cdn", "@import", "url(", "src=\"", "<link",
        ] {
            assert!(!html.contains(bad), "the page holds {bad}");
        }
        assert!(!html.contains("{{"), "a placeholder was left");
    }
}
