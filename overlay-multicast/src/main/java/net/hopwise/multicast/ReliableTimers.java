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
        long next = s.nextGapNanos();
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
                engine.sendControl(parent, ReliableControl.of(ReliableControl.ACK, s.key, s.epoch, w, 0, 0));
                s.lastAckSent = w;
                s.acksSkipped = 0;
            }
        }
    }

    static void askParent(ReliableEngine engine, ReliableStream s, long nowNanos) {
        askParent(engine, s, nowNanos, ReliableControl.nackCapacity(engine.maxBody()));
    }

    private static void askParent(ReliableEngine engine, ReliableStream s, long nowNanos, int nackCapacity) {
        if (s.nextGapNanos() > nowNanos) {
            return;
        }
        LinkView parent = engine.parentLink(s.key);
        if (parent == null) {
            // No parent now (a reroute under way): the gaps wait a retry, then ask whoever it is.
            s.dueGaps(nowNanos, engine.config().nackRetryNanos(), Integer.MAX_VALUE);
            return;
        }
        List<long[]> due = s.dueGaps(nowNanos, engine.config().nackRetryNanos(), nackCapacity);
        if (!due.isEmpty()) {
            engine.sendControl(parent, ReliableControl.nack(s.key, s.epoch, due));
            s.nacksSent++;
        }
    }

    /** The source's window: the least its children's subtrees have received; a held message may go now. */
    static void moveWindow(ReliableEngine engine, ReliableStream s, long nowNanos) {
        List<net.hopwise.overlay.NodeId> children = engine.stage().treeAt(engine.self(), s.key.group(),
                s.key.metric()).children();
        long floor = s.watermark(children, false, s.ackFloor, nowNanos, engine.config().memberTimeoutNanos());
        if (floor != s.ackFloor) {
            s.ackFloor = floor;
            engine.windowMoved(s.key, nowNanos);
        }
    }
}
