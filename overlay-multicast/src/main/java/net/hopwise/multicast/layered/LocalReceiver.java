package net.hopwise.multicast.layered;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import net.hopwise.multicast.GroupId;
import net.hopwise.multicast.Membership;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.spi.DropCounter;

/**
 * One application's receiver of a layered session on a node: unbound until the first valid
 * announcement on its group and port, then an {@link EraReceiver} whose joins and leaves are the
 * node's local grafts and prunes in that session. State changes on the node's thread; the level,
 * rate and history are published for any thread.
 */
final class LocalReceiver implements LayeredReceiver {
    /** Level changes kept for {@link #history()}: minutes of a receiver's life at one change per interval. */
    static final int HISTORY = 256;

    private final LayeredMulticast api;
    private final GroupId group;
    private final int port;
    private final LayeredHandler handler;
    private final EraConfig config;
    private final DropCounter handlerError;
    private final CopyOnWriteArrayList<Consumer<LevelChange>> levelListeners = new CopyOnWriteArrayList<>();
    private final CopyOnWriteArrayList<Consumer<EraDecision>> decisionListeners = new CopyOnWriteArrayList<>();
    private final ArrayDeque<LevelChange> history = new ArrayDeque<>();
    volatile Membership membership;
    private SessionRelay relay;
    private EraReceiver era;
    private volatile SessionAnnouncement announcement;
    private volatile NodeId source;
    private volatile int level = -1;
    private volatile long rate;
    private volatile long packets;
    private volatile boolean left;

    LocalReceiver(LayeredMulticast api, GroupId group, int port, EraConfig config, LayeredHandler handler,
            DropCounter handlerError) {
        this.api = api;
        this.group = group;
        this.port = port;
        this.config = config;
        this.handler = handler;
        this.handlerError = handlerError;
    }

    GroupId group() {
        return group;
    }

    int port() {
        return port;
    }

    SessionRelay relay() {
        return relay;
    }

    EraReceiver era() {
        return era;
    }

    /**
     * An announcement on this receiver's group and port. The first binds it to its session; others
     * go to the ERA receiver, which refuses those of another session or of other layers.
     */
    void onAnnouncement(SessionRelay sessionRelay, SessionAnnouncement a, long nowNanos) {
        if (left) {
            return;
        }
        if (era == null) {
            relay = sessionRelay;
            source = sessionRelay.key().source();
            relay.locals().add(this);
            era = new EraReceiver(a.sessionId(), config, api.rttTo(source), new LayerSubscriber() {
                @Override
                public void join(int layer, long now) {
                    relay.forwarding().localJoin(layer, now);
                }

                @Override
                public void leave(int layer, long now) {
                    relay.forwarding().localLeave(layer, now);
                }
            }, this::decided);
            era.onAnnouncement(a, nowNanos);
            announcement = era.announcement();
            era.join(nowNanos);
            published(nowNanos);
        } else if (relay == sessionRelay) {
            era.onAnnouncement(a, nowNanos);
        }
    }

    void onPacket(LayeredPacket p, io.netty.buffer.ByteBuf body, long nowNanos) {
        if (era == null || left) {
            return;
        }
        boolean held = p.layer() <= era.level();
        era.onPacket(p, nowNanos);
        if (held) {
            packets++;
            if (LayeredWire.payloadLength(body) > 0) {
                LayeredMessage m = new LayeredMessage(source, group, port, p.sessionId(), p.layer(), p.sequence(),
                        LayeredWire.payload(body));
                try {
                    handler.onMessage(m);
                } catch (RuntimeException e) {
                    handlerError.increment();
                }
            }
        }
        published(nowNanos);
    }

    long nextDeadlineNanos() {
        return era == null || left ? Long.MAX_VALUE : era.nextDeadlineNanos();
    }

    void onTimer(long nowNanos) {
        if (era != null && !left) {
            era.onTimer(nowNanos);
            published(nowNanos);
        }
    }

    /** On the node's thread: every layer left, the node-level membership with it. */
    void leaveNow(long nowNanos) {
        if (era != null) {
            era.leave(nowNanos);
            published(nowNanos);
            relay.locals().remove(this);
        }
        left = true;
    }

    private void decided(EraDecision d) {
        for (Consumer<EraDecision> listener : decisionListeners) {
            try {
                listener.accept(d);
            } catch (RuntimeException e) {
                handlerError.increment();
            }
        }
    }

    private void published(long nowNanos) {
        int l = era.level();
        if (l == level) {
            return;
        }
        level = l;
        rate = era.rateBitsPerSecond();
        LevelChange c = new LevelChange(nowNanos, l, rate);
        synchronized (history) {
            if (history.size() == HISTORY) {
                history.removeFirst();
            }
            history.addLast(c);
        }
        for (Consumer<LevelChange> listener : levelListeners) {
            try {
                listener.accept(c);
            } catch (RuntimeException e) {
                handlerError.increment();
            }
        }
    }

    @Override
    public int level() {
        return level;
    }

    @Override
    public long rateBitsPerSecond() {
        return rate;
    }

    @Override
    public SessionAnnouncement announcement() {
        return announcement;
    }

    @Override
    public NodeId source() {
        return source;
    }

    @Override
    public long packetsReceived() {
        return packets;
    }

    @Override
    public List<LevelChange> history() {
        synchronized (history) {
            return new ArrayList<>(history);
        }
    }

    @Override
    public void onLevelChange(Consumer<LevelChange> listener) {
        levelListeners.add(java.util.Objects.requireNonNull(listener, "listener"));
    }

    @Override
    public void onDecision(Consumer<EraDecision> listener) {
        decisionListeners.add(java.util.Objects.requireNonNull(listener, "listener"));
    }

    @Override
    public void leave() {
        api.leave(this);
    }

    boolean left() {
        return left;
    }

    @Override
    public String toString() {
        return "layered receiver of " + group + " port " + port + " at level " + level;
    }
}
