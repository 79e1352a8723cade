package net.hopwise.multicast;

/**
 * What became of a best-effort send at the call: whether the message was handed to the node, and in
 * how many fragments. Best effort promises nothing past that: see {@link GroupStatistics} for what
 * went out.
 */
public record SendResult(Status status, int fragments, String detail) {
    public enum Status {
        /** Handed to the node; it leaves on the source's tree to the member nodes known now. */
        ACCEPTED,
        /** Larger than the module's maxMessageBytes. */
        TOO_LARGE,
        /** A bad group name or port. */
        INVALID,
        /** The node is stopped, or the sender closed. */
        STOPPED,
        /**
         * Flow control still holds the sender's previous message, which it cannot afford yet: send
         * again once the sender is writable.
         */
        BLOCKED
    }

    static SendResult accepted(int fragments) {
        return new SendResult(Status.ACCEPTED, fragments, null);
    }

    static SendResult refused(Status status, String detail) {
        return new SendResult(status, 0, detail);
    }

    public boolean accepted() {
        return status == Status.ACCEPTED;
    }
}
