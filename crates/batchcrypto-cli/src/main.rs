//! The `batchcrypto` binary: the command line of [`batchcrypto_cli`] (its
//! verbs, formats and exit statuses are documented there).

fn main() -> std::process::ExitCode {
    batchcrypto_cli::main()
}
