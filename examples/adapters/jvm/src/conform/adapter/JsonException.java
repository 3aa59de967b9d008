package conform.adapter;

/**
 * Text that is not JSON (with the 1-based line and column where reading stopped), or a value that
 * cannot be written as JSON (with the JSON pointer of the offending member).
 */
public final class JsonException extends Exception {
    private static final long serialVersionUID = 1L;

    /** 1-based line of the problem in the text read, or 0 for a problem in writing. */
    public final int line;
    /** 1-based column (in UTF-16 code units) of the problem in the text read, or 0 for writing. */
    public final int column;
    /** JSON pointer of the value that could not be written, or {@code null} for reading. */
    public final String pointer;

    JsonException(String message, int line, int column) {
        super("line " + line + ", column " + column + ": " + message);
        this.line = line;
        this.column = column;
        this.pointer = null;
    }

    JsonException(String message, String pointer) {
        super("at " + (pointer.isEmpty() ? "the top level" : pointer) + ": " + message);
        this.line = 0;
        this.column = 0;
        this.pointer = pointer;
    }
}
