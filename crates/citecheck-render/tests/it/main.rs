//! The Chromium renderer against a real headless Chromium and a fixture site on 127.0.0.1.
//!
//! Chromium comes from `CITECHECK_CHROMIUM` or the PATH. Without one the tests fail under
//! `CI=true` (the test command installs Debian's chromium) and are skipped, saying so,
//! elsewhere.

mod fixture;
mod render;
