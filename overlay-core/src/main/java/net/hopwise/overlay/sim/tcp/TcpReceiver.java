package net.hopwise.overlay.sim.tcp;

import java.util.Objects;

/**
 * The receiving half of a simulated TCP connection, sans-IO: it acknowledges every segment at once
 * (ns-2's TCPSink has no delayed ACKs), holds out-of-order segments within the advertised window,
 * delivers messages to the application strictly in order, and reports up to three SACK blocks, the
 * one holding the latest segment first (RFC 2018).
 */
public final class TcpReceiver {
    /** SACK blocks that fit in the TCP option space next to a timestamp. */
    public static final int MAX_SACK_BLOCKS = 3;

    private final TcpReceiverOutput output;
    private final boolean selective;
    private final int window;
    private final int mask;
    private final boolean[] held;
    private final long[] heldGeneratedAt;
    private final long[] blocks = new long[2 * MAX_SACK_BLOCKS];
    private long expected;
    private long highest = -1;
    private long delivered;
    private long duplicates;

    /**
     * @param selective whether acknowledgements carry SACK blocks
     */
    public TcpReceiver(TcpConfig config, boolean selective, TcpReceiverOutput output) {
        this.output = Objects.requireNonNull(output, "output");
        this.selective = selective;
        this.window = config.receiverWindow();
        int size = Integer.highestOneBit(Math.max(1, window - 1)) << 1;
        this.mask = size - 1;
        this.held = new boolean[size];
        this.heldGeneratedAt = new long[size];
    }

    /** Takes one data segment. */
    public void onSegment(long sequence, long generatedAtNanos, long nowNanos) {
        if (sequence < expected || sequence >= expected + window || held[(int) (sequence & mask)]) {
            duplicates++;
            acknowledge(-1);
            return;
        }
        held[(int) (sequence & mask)] = true;
        heldGeneratedAt[(int) (sequence & mask)] = generatedAtNanos;
        highest = Math.max(highest, sequence);
        while (held[(int) (expected & mask)] && expected <= highest) {
            int i = (int) (expected & mask);
            held[i] = false;
            delivered++;
            output.deliver(expected, heldGeneratedAt[i], nowNanos);
            expected++;
        }
        acknowledge(sequence);
    }

    private void acknowledge(long latest) {
        int count = 0;
        if (selective && highest >= expected) {
            if (latest > expected) {
                count = addBlockAround(latest, count);
            }
            for (long s = highest; s > expected && count < MAX_SACK_BLOCKS; s--) {
                if (held[(int) (s & mask)] && !(latest >= 0 && inBlock(s, count))) {
                    long end = s + 1;
                    long start = s;
                    while (start - 1 > expected && held[(int) ((start - 1) & mask)]) {
                        start--;
                    }
                    blocks[2 * count] = start;
                    blocks[2 * count + 1] = end;
                    count++;
                    s = start;
                }
            }
        }
        output.sendAck(expected, blocks, count);
    }

    private int addBlockAround(long sequence, int count) {
        long start = sequence;
        long end = sequence + 1;
        while (start - 1 > expected && held[(int) ((start - 1) & mask)]) {
            start--;
        }
        while (end <= highest && held[(int) (end & mask)]) {
            end++;
        }
        blocks[0] = start;
        blocks[1] = end;
        return count + 1;
    }

    private boolean inBlock(long s, int count) {
        return count > 0 && s >= blocks[0] && s < blocks[1];
    }

    /** The next sequence number expected: every message below it was delivered. */
    public long expected() {
        return expected;
    }

    public long delivered() {
        return delivered;
    }

    public long duplicates() {
        return duplicates;
    }
}
