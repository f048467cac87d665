//! A small HTTP/1.1 client over `TcpStream` and a WebDriver session on Debian's
//! chromium-driver, for the tests of the web pages (`shogi view`, `shogi serve`). Screenshots go
//! to `target/web-screenshots/`.

#![allow(dead_code)]

use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// One HTTP request: status and body (the connection is closed after it).
pub fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&Value>) -> (u16, String) {
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(5)).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).expect("send");
    // Read the head, then the body by its Content-Length (a server may keep the connection
    // open), or to the end of the stream.
    let mut raw = Vec::new();
    let mut buf = [0u8; 65536];
    let head_end = loop {
        if let Some(i) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        let n = s.read(&mut buf).expect("read");
        assert!(
            n > 0,
            "{method} {path}: the connection closed before the answer's head"
        );
        raw.extend_from_slice(&buf[..n]);
    };
    let head = String::from_utf8_lossy(&raw[..head_end]).to_ascii_lowercase();
    let length = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse::<usize>().ok());
    loop {
        if length.is_some_and(|n| raw.len() >= head_end + n) {
            break;
        }
        let n = s.read(&mut buf).expect("read");
        if n == 0 {
            break;
        }
        raw.extend_from_slice(&buf[..n]);
    }
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .expect("a status");
    let rest = String::from_utf8_lossy(&raw[head_end..]).into_owned();
    let chunked = head.contains("transfer-encoding: chunked");
    (status, if chunked { unchunk(&rest) } else { rest })
}

/// A chunked body joined.
fn unchunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// A GET answering JSON.
pub fn get_json(addr: SocketAddr, path: &str) -> (u16, Value) {
    let (status, body) = http(addr, "GET", path, None);
    let v = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: {e}: {body}"));
    (status, v)
}

/// Debian's chromium and chromedriver, or `None` with a note; in CI (`CI` set) a missing
/// browser fails the test (scripts/install-engines.sh installs it).
pub fn browser() -> Option<PathBuf> {
    let driver = PathBuf::from("/usr/bin/chromedriver");
    if driver.is_file() && PathBuf::from("/usr/bin/chromium").is_file() {
        return Some(driver);
    }
    if std::env::var_os("CI").is_some_and(|v| !v.is_empty()) {
        panic!("chromium or chromedriver is missing and CI is set: run scripts/install-engines.sh");
    }
    eprintln!(
        "note: chromium/chromedriver missing: browser test skipped (scripts/install-engines.sh)"
    );
    None
}

/// A free local port.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// A chromium session driven through chromedriver; both end when it is dropped.
pub struct Browser {
    driver: Child,
    addr: SocketAddr,
    session: String,
}

impl Browser {
    /// Starts chromedriver and a headless chromium of `width` x `height`.
    pub fn start(driver: &PathBuf, width: u32, height: u32) -> Browser {
        let port = free_port();
        let child = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let t = Instant::now();
        while TcpStream::connect(addr).is_err() {
            assert!(
                t.elapsed() < Duration::from_secs(20),
                "chromedriver does not listen"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let caps = json!({"capabilities": {"alwaysMatch": {"goog:chromeOptions": {
            "binary": "/usr/bin/chromium",
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     format!("--window-size={width},{height}"), "--lang=ja"]
        }}}});
        let mut b = Browser {
            driver: child,
            addr,
            session: String::new(),
        };
        let v = b.call("POST", "/session", Some(&caps));
        b.session = v["sessionId"].as_str().expect("a session").to_string();
        b
    }

    /// A WebDriver command; its `value`.
    pub fn call(&self, method: &str, path: &str, body: Option<&Value>) -> Value {
        let (status, text) = http(self.addr, method, path, body);
        let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        assert_eq!(status, 200, "{method} {path}: {text}");
        v["value"].clone()
    }

    fn s(&self, rest: &str) -> String {
        format!("/session/{}{rest}", self.session)
    }

    /// Opens `url`.
    pub fn go(&self, url: &str) {
        self.call("POST", &self.s("/url"), Some(&json!({"url": url})));
    }

    /// Runs `script` (a function body; `arguments` available) and gives its return value.
    pub fn js(&self, script: &str) -> Value {
        self.call(
            "POST",
            &self.s("/execute/sync"),
            Some(&json!({"script": script, "args": []})),
        )
    }

    /// Waits (up to 10 s) until `script` returns true.
    pub fn wait(&self, script: &str, what: &str) {
        let t = Instant::now();
        while self.js(script) != Value::Bool(true) {
            assert!(
                t.elapsed() < Duration::from_secs(10),
                "timed out waiting for {what}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The element matching `css` (the first).
    pub fn find(&self, css: &str) -> String {
        let v = self.call(
            "POST",
            &self.s("/element"),
            Some(&json!({"using": "css selector", "value": css})),
        );
        v.as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("no element {css}"))
            .to_string()
    }

    /// Clicks the element matching `css`.
    pub fn click(&self, css: &str) {
        let id = self.find(css);
        self.call(
            "POST",
            &self.s(&format!("/element/{id}/click")),
            Some(&json!({})),
        );
    }

    /// Types `text` into the element matching `css` (WebDriver key codes for special keys).
    pub fn keys(&self, css: &str, text: &str) {
        let id = self.find(css);
        self.call(
            "POST",
            &self.s(&format!("/element/{id}/value")),
            Some(&json!({"text": text})),
        );
    }

    /// Presses one key (a WebDriver code such as `\u{E014}`, →) on the page, as a user would.
    pub fn press(&self, key: &str) {
        let actions = json!({"actions": [{"type": "key", "id": "kb", "actions": [
            {"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]}]});
        self.call("POST", &self.s("/actions"), Some(&actions));
    }

    /// Drags (pointer down, move, up) from the centre of the element matching `from` to that
    /// of `to` (both as they are before the press), with a mouse or a finger (`touch`).
    pub fn drag(&self, from: &str, to: &str, touch: bool) {
        let centre = |css: &str| {
            let v = self.js(&format!(
                "var r = document.querySelector(\"{css}\").getBoundingClientRect(); \
                 return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)];"
            ));
            (v[0].as_i64().unwrap(), v[1].as_i64().unwrap())
        };
        let ((x0, y0), (x1, y1)) = (centre(from), centre(to));
        let kind = if touch { "touch" } else { "mouse" };
        let actions = json!({"actions": [{"type": "pointer", "id": "p",
            "parameters": {"pointerType": kind}, "actions": [
            {"type": "pointerMove", "duration": 0, "origin": "viewport", "x": x0, "y": y0},
            {"type": "pointerDown", "button": 0},
            {"type": "pointerMove", "duration": 150, "origin": "viewport", "x": x1, "y": y1},
            {"type": "pointerUp", "button": 0}]}]});
        self.call("POST", &self.s("/actions"), Some(&actions));
        self.call("DELETE", &self.s("/actions"), None);
    }

    /// Cuts the browser off the network (DevTools network emulation).
    pub fn offline(&self) {
        let c = json!({"network_conditions": {"offline": true, "latency": 0,
            "download_throughput": 0, "upload_throughput": 0}});
        self.call("POST", &self.s("/chromium/network_conditions"), Some(&c));
    }

    /// Saves a screenshot as `target/web-screenshots/NAME.png` and returns its path.
    pub fn screenshot(&self, name: &str) -> PathBuf {
        let v = self.call("GET", &self.s("/screenshot"), None);
        let png = base64(v.as_str().expect("base64 PNG"));
        assert!(png.starts_with(b"\x89PNG"), "a PNG");
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
        let dir = root.join("target/web-screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{name}.png"));
        std::fs::write(&path, png).unwrap();
        path
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = http(self.addr, "DELETE", &self.s(""), None);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Standard base64 decoded (padding and unknown characters skipped).
fn base64(s: &str) -> Vec<u8> {
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let (mut out, mut acc, mut bits) = (Vec::with_capacity(s.len() * 3 / 4), 0u32, 0);
    for v in s.bytes().filter_map(val) {
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}
