//! The `orbis` command-line tool. (Minimal on this branch: only `orbis adjudicate`.)

mod adjudicate;

use std::io::Read;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("adjudicate") => {
            let mut input = String::new();
            if let Err(e) = std::io::stdin().read_to_string(&mut input) {
                eprintln!("orbis adjudicate: cannot read stdin: {e}");
                return ExitCode::from(2);
            }
            match adjudicate::run(&input) {
                Ok(out) => {
                    println!("{out}");
                    ExitCode::SUCCESS
                }
                Err(msg) => {
                    eprintln!("orbis adjudicate: {msg}");
                    ExitCode::from(2)
                }
            }
        }
        _ => {
            eprintln!("usage: orbis adjudicate < phase.json");
            ExitCode::from(2)
        }
    }
}
