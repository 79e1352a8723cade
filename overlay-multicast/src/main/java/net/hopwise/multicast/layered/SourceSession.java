package net.hopwise.multicast.layered;

import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A layered session's source on its node: an {@link EraSender} driven by the node's timer, whose
 * packets carry what the application queued per layer. The API side (offer, close) runs on any
 * thread; everything else on the node's.
 */
final class SourceSession implements LayeredSender {
    /**
     * 256 offers queued per layer: at the default 512-byte packets of a 20 Kbit/s layer, 50 s of
     * the layer's packets; an application that offers faster than its layer's rate gets false back
     * rather than an ever longer delay.
     */
    static final int MAX_QUEUED_PER_LAYER = 256;

    private final LayeredMulticast api;
    private final SessionRelay relay;
    private final int bodyBytes;
    private final EraSender sender;
    private final ConcurrentLinkedQueue<byte[]>[] queues;
    private final AtomicInteger[] queued;
    private final AtomicLong sent = new AtomicLong();
    private volatile boolean closed;

    @SuppressWarnings("unchecked")
    SourceSession(LayeredMulticast api, LayeredService service, SessionRelay relay, LayerRates layers, EraConfig config, int bodyBytes,
            long startNanos) {
        this.api = api;
        this.relay = relay;
        this.bodyBytes = bodyBytes;
        this.queues = new ConcurrentLinkedQueue[layers.count()];
        this.queued = new AtomicInteger[layers.count()];
        for (int i = 0; i < queues.length; i++) {
            queues[i] = new ConcurrentLinkedQueue<>();
            queued[i] = new AtomicInteger();
        }
        this.sender = new EraSender(relay.key().sessionId(), 1, layers, config, 0, startNanos, new LayeredOutput() {
            @Override
            public void data(LayeredPacket header, long nowNanos) {
                sent.incrementAndGet();
                service.originate(relay, header, next(header.layer()), bodyBytes, nowNanos);
            }

            @Override
            public void announce(SessionAnnouncement announcement, long nowNanos) {
                service.announce(relay, announcement, nowNanos);
            }
        }, relay.key().sessionId() ^ relay.key().source().value());
    }

    private byte[] next(int layer) {
        byte[] p = queues[layer].poll();
        if (p != null) {
            queued[layer].decrementAndGet();
        }
        return p;
    }

    SessionRelay relay() {
        return relay;
    }

    long nextDeadlineNanos() {
        return closed ? Long.MAX_VALUE : sender.nextDeadlineNanos();
    }

    void onTimer(long nowNanos) {
        if (!closed) {
            sender.onTimer(nowNanos);
        }
    }

    boolean closed() {
        return closed;
    }

    @Override
    public int sessionId() {
        return relay.key().sessionId();
    }

    @Override
    public SessionAnnouncement announcement() {
        return sender.announcement();
    }

    @Override
    public int payloadRoom() {
        return bodyBytes - LayeredWire.DATA_HEADER;
    }

    @Override
    public boolean offer(int layer, byte[] payload) {
        Objects.requireNonNull(payload, "payload");
        if (layer < 0 || layer >= queues.length) {
            throw new IllegalArgumentException("layer must be in 0.." + (queues.length - 1) + ", got " + layer);
        }
        if (payload.length > payloadRoom()) {
            throw new IllegalArgumentException(payload.length + " bytes exceed a packet's room of " + payloadRoom());
        }
        if (closed || queued[layer].incrementAndGet() > MAX_QUEUED_PER_LAYER) {
            if (!closed) {
                queued[layer].decrementAndGet();
            }
            return false;
        }
        queues[layer].add(payload.clone());
        return true;
    }

    @Override
    public long packetsSent() {
        return sent.get();
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            api.closed(this);
        }
    }
}
