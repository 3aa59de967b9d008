//! The `conform` command: parse arguments, run the command, exit with its code.

mod cli;

use std::alloc::{GlobalAlloc, Layout};

/// The references allocate many small JSON values; mimalloc is markedly
/// faster at that than the system allocator (see benches/chat.rs).
#[global_allocator]
static ALLOCATOR: ClearOutOfMemory = ClearOutOfMemory(mimalloc::MiMalloc);

/// mimalloc, and one clear line instead of a bare abort when memory runs
/// out (under `ulimit -v`, or a container's limit): the line says what to
/// do, the temporary files of writes in progress are removed, and the exit
/// status is 2 (the command could not judge). Nothing in conform relies on
/// recovering from a failed allocation, so a null here is always the end.
struct ClearOutOfMemory(mimalloc::MiMalloc);

// SAFETY: every method forwards to mimalloc unchanged; only a null result
// (which the caller would turn into an abort) is intercepted.
unsafe impl GlobalAlloc for ClearOutOfMemory {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's guarantees.
        let pointer = unsafe { self.0.alloc(layout) };
        if pointer.is_null() {
            out_of_memory(layout.size());
        }
        pointer
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's guarantees.
        let pointer = unsafe { self.0.alloc_zeroed(layout) };
        if pointer.is_null() {
            out_of_memory(layout.size());
        }
        pointer
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { self.0.dealloc(pointer, layout) }
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded with the caller's guarantees.
        let moved = unsafe { self.0.realloc(pointer, layout, new_size) };
        if moved.is_null() {
            out_of_memory(new_size);
        }
        moved
    }
}

/// Prints the out-of-memory line and exits, without allocating.
fn out_of_memory(size: usize) -> ! {
    let mut line = [0u8; 400];
    let mut length = 0;
    let mut push = |bytes: &[u8]| {
        let end = (length + bytes.len()).min(line.len());
        line[length..end].copy_from_slice(&bytes[..end - length]);
        length = end;
    };
    push(b"error: out of memory: conform could not allocate ");
    let mut digits = [0u8; 20];
    let mut rest = size;
    let mut start = digits.len();
    loop {
        start -= 1;
        digits[start] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    push(&digits[start..]);
    push(
        b" more bytes; give it more memory, run fewer jobs (-j), or lower --max-json-values, --max-fixture-size \
          or --max-output (docs/limits.md)\n",
    );
    write_stderr(&line[..length]);
    conform::files::try_remove_live();
    exit_now(2)
}

#[cfg(unix)]
fn write_stderr(bytes: &[u8]) {
    // SAFETY: writing a valid buffer to file descriptor 2.
    let _ = unsafe { libc::write(2, bytes.as_ptr().cast(), bytes.len()) };
}

#[cfg(unix)]
fn exit_now(code: i32) -> ! {
    // SAFETY: _exit ends the process at once, running nothing that could
    // allocate.
    unsafe { libc::_exit(code) }
}

#[cfg(not(unix))]
fn write_stderr(bytes: &[u8]) {
    use std::io::Write;
    let _ = std::io::stderr().write_all(bytes);
}

#[cfg(not(unix))]
fn exit_now(code: i32) -> ! {
    std::process::exit(code)
}

fn main() {
    std::process::exit(cli::main());
}
