package conform.adapter;

/** Thrown by a {@link Decoder} to decline a case: its verdict is {@code skipped}, with the reason. */
public final class Skip extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Declines the case for {@code reason}, shown in every report. */
    public Skip(String reason) {
        super(reason);
    }

    /** The reason given. */
    public String reason() {
        return getMessage();
    }
}
