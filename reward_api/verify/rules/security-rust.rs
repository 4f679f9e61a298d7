// Fixture for security-rust.yaml, checked by `semgrep --test`.
// ruleid: rust-network-access
use std::net::TcpStream;
use std::process::Command;

fn run() -> usize {
    // ruleid: rust-process-spawn
    let out = Command::new("ls").output().unwrap();
    // ruleid: rust-network-access
    let conn = TcpStream::connect("example.com:80");
    // ok: rust-process-spawn
    let words: Vec<&str> = "a b".split(' ').collect();
    let _ = conn;
    out.stdout.len() + words.len()
}
