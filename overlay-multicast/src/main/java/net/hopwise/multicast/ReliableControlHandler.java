package net.hopwise.multicast;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.link.LinkStatistics;
import net.hopwise.overlay.spi.LinkView;

/**
 * What a node does with each control packet of a reliable stream: NACKs and ACKs from its children,
 * heartbeats and squelches from its parent. Only on the node's thread.
 */
final class ReliableControlHandler {
    /** Without a measured round trip to the child, a packet sent this recently is taken as on its way. */
    static final long DEFAULT_HOLDOFF_NANOS = 100_000_000L;
    /** The least hold-off: below it a NACK crossing a repair is the only case, and costs one resend. */
    static final long MIN_HOLDOFF_NANOS = 5_000_000L;

    private ReliableControlHandler() {}

    static void handle(ReliableEngine engine, LinkView from, ReliableControl c, ByteBuf body, long nowNanos) {
        switch (c.kind()) {
            case ReliableControl.NACK -> onNack(engine, from, c, nowNanos);
            case ReliableControl.ACK -> onAck(engine, from, c, nowNanos);
            case ReliableControl.HEARTBEAT -> onHeartbeat(engine, from, c, body, nowNanos);
            default -> onSquelch(engine, from, c, body);
        }
    }

    private static void onAck(ReliableEngine engine, LinkView from, ReliableControl c, long nowNanos) {
        ReliableStream s = engine.stream(c.key());
        if (s == null || !s.started || s.epoch != c.epoch()) {
            return;
        }
        s.onChildAck(from.id(), c.a(), nowNanos);
        if (s.source) {
            ReliableTimers.moveWindow(engine, s, nowNanos);
        } else {
            ReliableTimers.ackEarly(engine, s, nowNanos, true);
        }
    }

    /**
     * A child lacks packets: resend what the cache holds (unless it went to the children just now and
     * is still on its way), and ask upstream once for what this node lacks too.
     */
    private static void onNack(ReliableEngine engine, LinkView from, ReliableControl c, long nowNanos) {
        ReliableStream s = engine.stream(c.key());
        if (s == null || !s.started || s.epoch != c.epoch()) {
            if (s != null && s.source || c.ranges().isEmpty() || engine.parentLink(c.key()) == null) {
                return;
            }
            // A relay new to the stream (a reroute made it one) passes its children's requests on.
            s = engine.relayStream(c.key(), c.epoch(), c.ranges().get(0)[0], nowNanos);
            if (s == null) {
                return;
            }
        }
        s.nacksReceived++;
        s.sequencesAskedOfIt += ReliableTimers.count(c.ranges());
        int cache = engine.config().cachePackets();
        long holdoff = holdoff(from);
        boolean askUp = false;
        long squelch = -1;
        List<long[]> forward = new ArrayList<>();
        for (long[] range : c.ranges()) {
            long first = Math.max(range[0], s.high - 2L * cache);
            long end = Math.min(range[0] + range[1], s.high + cache);
            for (long seq = first; seq < end; seq++) {
                ByteBuf b = s.get(seq);
                if (b != null) {
                    // Hop-by-hop reliability underneath: a packet the child's channel still carries arrives
                    // without a repair, which would only queue behind it and crowd the channel's buffer.
                    if (engine.carrying(s, seq, from.id())
                            || !s.shouldRepair(seq, from.id(), nowNanos, holdoff, 4 * engine.config().nackRetryNanos())) {
                        s.nacksSuppressed++;
                    } else {
                        engine.repair(from, b);
                        s.repairsSent++;
                    }
                } else if (s.source) {
                    if (seq < s.low) {
                        squelch = s.low;
                    }
                } else if (seq < s.low && !s.extendDown(seq, nowNanos)) {
                    s.addPending(seq, from.id());
                    add(forward, seq);
                } else {
                    s.addPending(seq, from.id());
                    if (seq >= s.high) {
                        s.extendTo(seq + 1, nowNanos, 0, engine.random());
                    }
                    if (s.askNow(seq, nowNanos)) {
                        askUp = true;
                    } else {
                        s.nacksSuppressed++;
                    }
                }
            }
        }
        if (squelch >= 0) {
            engine.sendControl(from, ReliableControl.of(ReliableControl.SQUELCH, s.key, s.epoch, squelch, 0, 0));
            s.squelches++;
        }
        if (!forward.isEmpty()) {
            engine.sendControl(engine.parentLink(s.key), ReliableControl.nack(s.key, s.epoch, forward));
            s.nacksSent++;
            s.sequencesAsked += ReliableTimers.count(forward);
        }
        if (askUp) {
            ReliableTimers.askParent(engine, s, nowNanos);
        }
    }

    private static void add(List<long[]> ranges, long seq) {
        long[] last = ranges.isEmpty() ? null : ranges.get(ranges.size() - 1);
        if (last != null && last[0] + last[1] == seq && last[1] < 0xFFFF) {
            last[1]++;
        } else if (ranges.size() < 64) {
            ranges.add(new long[] {seq, 1});
        }
    }

    /** Two round trips to the child: a packet sent to it more recently may still be arriving. */
    private static long holdoff(LinkView child) {
        LinkStatistics st = child.statistics();
        if (st == null || st.srttNanos() <= 0) {
            return DEFAULT_HOLDOFF_NANOS;
        }
        return Math.max(MIN_HOLDOFF_NANOS, 2 * st.srttNanos());
    }

    private static boolean fromParent(ReliableEngine engine, LinkView from, ReliableControl c) {
        if (c.key().source().equals(engine.self())) {
            return false;
        }
        LinkView parent = engine.parentLink(c.key());
        return parent != null && parent.id().equals(from.id());
    }

    private static void onHeartbeat(ReliableEngine engine, LinkView from, ReliableControl c, ByteBuf body,
            long nowNanos) {
        if (!fromParent(engine, from, c)) {
            return;
        }
        engine.toChildren(c.key(), body);
        boolean member = engine.stage().isMember(c.key().group());
        ReliableStream s = engine.stream(c.key());
        ReliableConfig config = engine.config();
        if (member && (s == null || !s.started || s.epoch != c.epoch())) {
            // New to the stream: from the source's horizon (about its join), or its oldest packet kept.
            s = engine.startMember(c.key(), c.epoch(), Math.max(c.b(), c.c()), nowNanos);
        } else if (s != null && member && !s.delivering && s.epoch == c.epoch()) {
            s.delivering = true;
            s.next = s.high;
        }
        if (s == null || !s.started || s.epoch != c.epoch()) {
            return;
        }
        s.lastHeardNanos = nowNanos;
        if (s.delivering && !member) {
            s.delivering = false;
        }
        if (s.delivering && s.lacksBelow(c.c())) {
            engine.dropMember(s, "the source no longer keeps packets below " + c.c() + " that it lacks");
        }
        s.forgetBelow(c.c());
        // The heartbeat finds losses at a stream's tail, after which nothing comes to show the gap. While
        // packets keep arriving, what it announces beyond them is mostly still on its way in the link
        // channels (which resend what a link loses): asking for it then only spends NACKs and, at a member
        // node behind a deep queue, a gap per packet in flight. A gap among arrivals shows itself.
        if (s.lastDataNanos == Long.MIN_VALUE || nowNanos - s.lastDataNanos >= config.heartbeatIntervalNanos()) {
            s.extendTo(c.a(), nowNanos, config.nackBackoffNanos(), engine.random());
        }
    }

    private static void onSquelch(ReliableEngine engine, LinkView from, ReliableControl c, ByteBuf body) {
        if (!fromParent(engine, from, c)) {
            return;
        }
        engine.toChildren(c.key(), body);
        ReliableStream s = engine.stream(c.key());
        if (s == null || !s.started || s.epoch != c.epoch()) {
            return;
        }
        s.squelches++;
        if (s.delivering && s.lacksBelow(c.a())) {
            engine.dropMember(s, "the source no longer keeps packets below " + c.a() + " that it lacks");
        }
        s.forgetBelow(c.a());
    }
}
