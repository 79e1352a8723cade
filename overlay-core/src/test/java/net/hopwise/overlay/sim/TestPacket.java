package net.hopwise.overlay.sim;

import java.util.List;

/** A packet that records when it arrived, for link tests. */
final class TestPacket extends Packet {
    final int id;
    final List<TestPacket> arrivals;
    long arrivedAt = -1;
    boolean discarded;

    TestPacket(int id, int size, long flow, List<TestPacket> arrivals) {
        super(size, flow);
        this.id = id;
        this.arrivals = arrivals;
    }

    @Override
    protected void arrive(SimLink via, long nowNanos) {
        arrivedAt = nowNanos;
        arrivals.add(this);
    }

    @Override
    protected void discard() {
        discarded = true;
    }
}
