//! The `conform` command: parse arguments, run the command, exit with its code.

mod cli;

/// The references allocate many small JSON values; mimalloc is markedly
/// faster at that than the system allocator (see benches/chat.rs).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(cli::main());
}
