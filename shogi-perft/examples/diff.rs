//! Finds a perft disagreement with the anchor: `diff SFEN DEPTH`.
use std::process::Command;
fn anchor(sfen: &str, d: u32) -> u64 {
    let out = Command::new("/root/.cache/shogi-bench/anchor-target/release/shogi-perft-anchor")
        .arg(d.to_string())
        .arg(sfen)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
}
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut pos = shogi_core::Position::from_sfen(&args[1]).unwrap();
    let mut d: u32 = args[2].parse().unwrap();
    let mut path = vec![];
    'outer: while d >= 1 {
        let ms = pos.legal_moves();
        if d == 1 {
            println!("at {} ours {} path {:?}", pos.to_sfen(), ms.len(), path);
            let mut v: Vec<String> = ms.iter().map(|m| m.to_usi()).collect();
            v.sort();
            println!("{}", v.join(" "));
            return;
        }
        for m in ms.iter() {
            let mut c = pos.clone();
            c.play_unchecked(*m);
            let a = anchor(&c.to_sfen(), d - 1);
            let o = shogi_perft::perft(&c, d - 1);
            if a != o {
                println!("{m:?}: anchor {a} ours {o}");
                path.push(*m);
                pos = c;
                d -= 1;
                continue 'outer;
            }
        }
        println!("no diff found at {} d{}", pos.to_sfen(), d);
        return;
    }
}
