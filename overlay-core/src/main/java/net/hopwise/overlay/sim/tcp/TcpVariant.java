package net.hopwise.overlay.sim.tcp;

/** The loss-recovery algorithm of a simulated TCP sender; all share slow start and congestion avoidance. */
public enum TcpVariant {
    /** Fast retransmit, then slow start from one segment (4.3BSD Tahoe). */
    TAHOE,
    /** Fast retransmit and fast recovery; any new ACK ends recovery (RFC 5681). */
    RENO,
    /** Reno that stays in recovery across partial ACKs, resending one hole per RTT (RFC 6582). */
    NEW_RENO,
    /** Selective acknowledgements and the pipe-based conservative recovery of RFC 6675. */
    SACK;

    /** Parses a command-line spelling: reno, newreno, new-reno, sack, tahoe. */
    public static TcpVariant parse(String text) {
        String t = text.trim().toLowerCase(java.util.Locale.ROOT).replace("-", "").replace("_", "");
        return switch (t) {
            case "tahoe" -> TAHOE;
            case "reno" -> RENO;
            case "newreno" -> NEW_RENO;
            case "sack" -> SACK;
            default -> throw new IllegalArgumentException("unknown TCP variant '" + text
                    + "': expected tahoe, reno, newreno or sack");
        };
    }

    /** The spelling used in tables. */
    public String label() {
        return switch (this) {
            case TAHOE -> "Tahoe";
            case RENO -> "Reno";
            case NEW_RENO -> "NewReno";
            case SACK -> "SACK";
        };
    }
}
