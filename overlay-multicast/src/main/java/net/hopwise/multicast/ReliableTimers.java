package net.hopwise.multicast;

import java.util.List;
import net.hopwise.overlay.spi.LinkView;

/**
 * The timed duties of a reliable stream at one node: a source's heartbeats and window, a node's
 * NACKs for its due gaps and its acknowledgements up the tree. Only on the node's thread.
 */
final class ReliableTimers {
    /** An unchanged acknowledgement still goes every eighth interval, so the parent keeps hearing the child. */
    static final int ACK_REPEAT = 8;

    private ReliableTimers() {}

    static long deadline(ReliableEngine engine, ReliableStream s, long nowNanos) {
        ReliableConfig config = engine.config();
        if (s.source) {
            return active(config, s, nowNanos) ? s.nextHeartbeatNanos : Long.MAX_VALUE;
        }
        long next = s.nextGapNanos(nowNanos);
        if (nowNanos - s.lastHeardNanos < 2 * config.memberTimeoutNanos()) {
            next = Math.min(next, s.nextAckNanos);
        }
        return next;
    }

    /** A source announces its stream while it sends, and until every member has everything. */
    private static boolean active(ReliableConfig config, ReliableStream s, long nowNanos) {
        return nowNanos - s.lastSendNanos < config.lingerNanos() || s.ackFloor < s.high;
    }

    static void run(ReliableEngine engine, ReliableStream s, long nowNanos, int nackCapacity) {
        ReliableConfig config = engine.config();
        if (s.source) {
            moveWindow(engine, s, nowNanos);
            if (active(config, s, nowNanos) && nowNanos >= s.nextHeartbeatNanos) {
                s.nextHeartbeatNanos = nowNanos + config.heartbeatIntervalNanos();
                engine.refreshHorizon(s);
                engine.toChildrenOwned(s.key, ReliableControl.of(ReliableControl.HEARTBEAT, s.key, s.epoch, s.high,
                        s.horizon, s.low));
            }
            return;
        }
        askParent(engine, s, nowNanos, nackCapacity);
        if (nowNanos >= s.nextAckNanos && nowNanos - s.lastHeardNanos < 2 * config.memberTimeoutNanos()) {
            s.nextAckNanos = nowNanos + config.ackIntervalNanos();
            GroupTrees.Entry e = engine.stage().treeAt(s.key.source(), s.key.group(), s.key.metric());
            LinkView parent = engine.parentLink(s.key);
            if (parent == null) {
                return;
            }
            long w = s.watermark(e.children(), s.delivering, s.lastAckSent < 0 ? s.low : s.lastAckSent, nowNanos,
                    config.memberTimeoutNanos());
            if (w != s.lastAckSent || ++s.acksSkipped >= ACK_REPEAT) {
                sendAck(engine, s, parent, w);
            }
        }
    }

    private static void sendAck(ReliableEngine engine, ReliableStream s, LinkView parent, long watermark) {
        // One the node refused was not sent: the next chance sends it, rather than a quarter window
        // later, while the source's window waits for it.
        if (engine.sendControl(parent, ReliableControl.of(ReliableControl.ACK, s.key, s.epoch, watermark, 0, 0))) {
            s.lastAckSent = watermark;
            s.acksSkipped = 0;
        }
    }

    /**
     * Acknowledges at once, without waiting for the interval, when the subtree's point moved {@link
     * ReliableConfig#ackEveryPackets} past the last report: a window then never waits a whole interval
     * per hop for the news that it may move, however fast the stream. Called when a member node's
     * delivery point moves ({@code childReported} false: a cheap test on its own point comes first, as
     * the subtree cannot be ahead of it) and when a child reports.
     */
    static void ackEarly(ReliableEngine engine, ReliableStream s, long nowNanos, boolean childReported) {
        ReliableConfig config = engine.config();
        long every = config.ackEveryPackets();
        long last = s.lastAckSent < 0 ? s.low : s.lastAckSent;
        if (!childReported) {
            long own = s.delivering ? s.next : s.contiguous();
            if (own - Math.max(last, s.ackCheckedAt) < every) {
                return;
            }
            s.ackCheckedAt = own;
        }
        GroupTrees.Entry e = engine.stage().treeAt(s.key.source(), s.key.group(), s.key.metric());
        long w = s.watermark(e.children(), s.delivering, last, nowNanos, config.memberTimeoutNanos());
        if (w - last < every) {
            return;
        }
        LinkView parent = engine.parentLink(s.key);
        if (parent != null) {
            sendAck(engine, s, parent, w);
            s.nextAckNanos = nowNanos + config.ackIntervalNanos();
        }
    }

    static void askParent(ReliableEngine engine, ReliableStream s, long nowNanos) {
        askParent(engine, s, nowNanos, ReliableControl.nackCapacity(engine.maxBody()));
    }

    private static void askParent(ReliableEngine engine, ReliableStream s, long nowNanos, int nackCapacity) {
        if (s.nextGapNanos(nowNanos) > nowNanos) {
            return;
        }
        LinkView parent = engine.parentLink(s.key);
        if (parent == null) {
            // No parent now (a reroute under way): the gaps wait a retry, then ask whoever it is.
            s.dueGaps(nowNanos, Integer.MAX_VALUE);
            return;
        }
        List<long[]> due = s.dueGaps(nowNanos, nackCapacity);
        if (!due.isEmpty()) {
            engine.sendControl(parent, ReliableControl.nack(s.key, s.epoch, due));
            s.nacksSent++;
            s.sequencesAsked += count(due);
        }
    }

    static long count(List<long[]> ranges) {
        long n = 0;
        for (long[] r : ranges) {
            n += r[1];
        }
        return n;
    }

    /** The source's window: the least its children's subtrees have received; a held message may go now. */
    static void moveWindow(ReliableEngine engine, ReliableStream s, long nowNanos) {
        List<net.hopwise.overlay.NodeId> children = engine.stage().treeAt(engine.self(), s.key.group(),
                s.key.metric()).children();
        long floor = s.watermark(children, false, s.ackFloor, nowNanos, engine.config().memberTimeoutNanos());
        if (floor != s.ackFloor) {
            long delta = floor - s.ackFloor;
            s.ackFloor = floor;
            engine.windowMoved(s.key, delta);
        }
    }
}
