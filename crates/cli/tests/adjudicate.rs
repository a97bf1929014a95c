//! Runs the `orbis` binary as scripts will.

use std::io::Write;
use std::process::{Command, Stdio};

fn run(input: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_orbis"))
        .arg("adjudicate")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start orbis");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn the_issue_example() {
    let (code, stdout, stderr) = run(r#"{"map": "europe-1901", "phase": "movement",
      "units":  {"FRANCE": ["A PAR", "F BRE"], "GERMANY": ["A MUN"]},
      "orders": {"FRANCE": ["A PAR - BUR", "F BRE H"], "GERMANY": ["A MUN - BUR"]}}"#);
    assert_eq!(code, 0, "{stderr}");
    let got: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let want: serde_json::Value = serde_json::from_str(
        r#"{"units":     {"FRANCE": ["A PAR", "F BRE"], "GERMANY": ["A MUN"]},
            "dislodged": {},
            "results":   {"A PAR": "bounce", "F BRE": "ok", "A MUN": "bounce"},
            "issued":    {"FRANCE": {"A PAR - BUR": "bounce", "F BRE H": "ok"},
                          "GERMANY": {"A MUN - BUR": "bounce"}}}"#,
    )
    .unwrap();
    assert_eq!(got, want);
    assert!(stderr.is_empty());
}

#[test]
fn malformed_json_exits_with_code_2() {
    let (code, stdout, stderr) = run(r#"{"map": "europe-1901", "units": "#);
    assert_eq!(code, 2);
    assert!(stdout.is_empty());
    assert!(stderr.contains("malformed JSON"), "{stderr}");
}
