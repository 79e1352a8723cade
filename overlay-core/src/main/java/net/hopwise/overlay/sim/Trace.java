package net.hopwise.overlay.sim;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The event trace of a run, kept as a SHA-256 over a compact encoding of every record and a count
 * per kind, never as a list: a 5000-second run costs the same memory as a one-second run.
 *
 * <p>A record is (kind, virtual time, subject, detail): 1 + 8 + 4 + 4 bytes, big-endian. Two runs
 * whose {@link #digest()}s are equal made the same decisions at the same instants, in the same
 * order; that is what the reproducibility tests compare.
 */
public final class Trace {
    private static final int RECORD_BYTES = 17;

    private final MessageDigest sha256;
    private final byte[] buffer = new byte[RECORD_BYTES * 512];
    private final long[] counts = new long[TraceKind.values().length];
    private int used;
    private long records;

    Trace() {
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform must provide SHA-256", e);
        }
    }

    /** Appends one record. */
    public void record(TraceKind kind, long timeNanos, int subject, int detail) {
        if (used == buffer.length) {
            sha256.update(buffer, 0, used);
            used = 0;
        }
        byte[] b = buffer;
        int i = used;
        b[i] = (byte) kind.ordinal();
        for (int s = 56; s >= 0; s -= 8) {
            b[++i] = (byte) (timeNanos >>> s);
        }
        b[++i] = (byte) (subject >>> 24);
        b[++i] = (byte) (subject >>> 16);
        b[++i] = (byte) (subject >>> 8);
        b[++i] = (byte) subject;
        b[++i] = (byte) (detail >>> 24);
        b[++i] = (byte) (detail >>> 16);
        b[++i] = (byte) (detail >>> 8);
        b[++i] = (byte) detail;
        used += RECORD_BYTES;
        counts[kind.ordinal()]++;
        records++;
    }

    /** Records so far. */
    public long records() {
        return records;
    }

    public long count(TraceKind kind) {
        return counts[kind.ordinal()];
    }

    /** The SHA-256 of every record so far, in hex; recording may continue afterwards. */
    public String digest() {
        try {
            MessageDigest copy = (MessageDigest) sha256.clone();
            copy.update(buffer, 0, used);
            return HexFormat.of().formatHex(copy.digest());
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("the platform's SHA-256 cannot be cloned", e);
        }
    }
}
