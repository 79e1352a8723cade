package net.hopwise.overlay;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import net.hopwise.overlay.node.NodeStack;
import net.hopwise.overlay.session.ReliableSessionSender;
import net.hopwise.overlay.session.SessionEndpoint;
import net.hopwise.overlay.session.SessionStatistics;

/**
 * One end of a reliable session: a stream of messages between a local port and a port of another
 * node, delivered exactly once and in order, recovered hop by hop on every link and end to end
 * after a node failure or a reroute.
 *
 * <pre>{@code
 * ReliableSession s = node.openSession(7, "f", 7, msg -> handle(msg.payloadBytes()));
 * if (s.send(bytes) == SendResult.BACK_PRESSURED) {
 *     s.onWritable(() -> resume());     // called on the node's event loop once room frees up
 * }
 * }</pre>
 *
 * <p>Every method may be called from any thread and none blocks, except the optional stream
 * adapters ({@link #outputStream()}, {@link #inputStream()}), which block the calling thread (never
 * the event loop: using them there is misuse and throws).
 *
 * <p>About 415 lines, over the house's 400: the session's blocking stream API and its non-blocking
 * sends share the one queue of messages not yet handed to the node and its writability.
 */
public final class ReliableSession implements AutoCloseable {
    /** Messages an input stream holds before the session stops taking more (its window closes). */
    private static final int STREAM_INBOX = 64;
    /** Bytes per message written by the output stream: many packets per message, still one window. */
    private static final int STREAM_CHUNK = 16 * 1024;

    private final OverlayNode node;
    private final SessionEndpoint endpoint;
    private final String remoteName;
    private final int limit;
    private final int payloadPerPacket;
    private final int headroom;
    private final ByteBufAllocator allocator;
    private final SendCredit credit;
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    /**
     * Messages accepted and not yet handed to the engine. A one-packet message is copied here, on the
     * caller's thread, into the buffer its packets will be sent from (behind the engine's headroom);
     * a longer one is a heap copy the engine splits.
     */
    private final Queue<ByteBuf> handoff = new ConcurrentLinkedQueue<>();
    private final Object writableSignal = new Object();
    private volatile Runnable writabilityListener;
    private volatile boolean open = true;
    private volatile StreamInbox inbox;

    ReliableSession(OverlayNode node, SessionEndpoint endpoint, String remoteName, int limit, int payloadPerPacket,
            int headroom, ByteBufAllocator allocator) {
        this.node = node;
        this.endpoint = endpoint;
        this.remoteName = remoteName;
        this.limit = limit;
        this.credit = new SendCredit(limit);
        this.payloadPerPacket = payloadPerPacket;
        this.headroom = headroom;
        this.allocator = allocator;
        endpoint.onAcknowledged(this::acknowledged);
    }

    public int localPort() {
        return endpoint.localPort();
    }

    public String remoteName() {
        return remoteName;
    }

    public NodeId remote() {
        return endpoint.remote();
    }

    public int remotePort() {
        return endpoint.remotePort();
    }

    public OverlayNode node() {
        return node;
    }

    SessionEndpoint endpoint() {
        return endpoint;
    }

    /**
     * Sends a message (copied; the array may be reused at once).
     *
     * @return ACCEPTED (it will arrive, in order, unless a node of the edges fails), BACK_PRESSURED
     *     (the session holds as much as it may, or did and half its buffer is not yet free: wait for
     *     {@link #onWritable}), or CLOSED
     * @throws IllegalArgumentException when the message exceeds the node's maxMessageBytes
     */
    public SendResult send(byte[] payload) {
        Objects.requireNonNull(payload, "payload");
        return send(Unpooled.wrappedBuffer(payload));
    }

    /**
     * Sends the readable bytes of {@code payload} as one message. The caller keeps ownership: the bytes
     * are copied before this returns, once, into the buffer the session keeps (a relay hands over what
     * it read from a socket and releases it as usual); the buffer's indices are left as they were.
     *
     * @return as {@link #send(byte[])}
     * @throws IllegalArgumentException as {@link #send(byte[])}
     */
    public SendResult send(ByteBuf payload) {
        Objects.requireNonNull(payload, "payload");
        int length = payload.readableBytes();
        if (length > node.config().maxMessageBytes()) {
            throw new IllegalArgumentException("message of " + length + " bytes exceeds maxMessageBytes "
                    + node.config().maxMessageBytes());
        }
        if (!open || !node.isRunning()) {
            return SendResult.CLOSED;
        }
        int packets = ReliableSessionSender.packetsFor(length, payloadPerPacket);
        if (packets > Math.min(limit, node.config().session().receiveWindow() / 2)) {
            throw new IllegalArgumentException("message of " + length + " bytes needs " + packets
                    + " packets, more than the session buffers take at once");
        }
        if (!credit.tryTake(packets)) {
            return SendResult.BACK_PRESSURED;
        }
        ByteBuf message;
        if (packets == 1) {
            message = allocator.ioBuffer(headroom + length);
            message.setIndex(headroom, headroom);
        } else {
            message = Unpooled.buffer(length);
        }
        message.writeBytes(payload, payload.readerIndex(), length);
        handoff.add(message);
        if (!open || !node.isRunning()) {
            // Closed or stopped meanwhile: nothing will hand this over, so release it here.
            credit.giveBack(packets);
            discardQueued();
            return SendResult.CLOSED;
        }
        if (drainScheduled.compareAndSet(false, true)) {
            node.executeOnLoop(this::drain);
        }
        return SendResult.ACCEPTED;
    }

    /** On the loop: hands queued messages to the engine in the order they were accepted. */
    private void drain() {
        drainScheduled.set(false);
        NodeStack engineRef = node.engineOnLoop();
        // One reading of the clock for the batch: the engine only needs it to the scale of its timers.
        long now = System.nanoTime();
        ByteBuf m;
        while ((m = handoff.poll()) != null) {
            if (engineRef == null || endpoint.isClosed()) {
                m.release();
                continue;
            }
            int packets = ReliableSessionSender.packetsFor(m.readableBytes(), payloadPerPacket);
            SendResult r;
            if (m.readerIndex() == headroom && packets == 1) {
                r = engineRef.sessionSendPrepared(endpoint, m, now);
            } else {
                try {
                    r = engineRef.sessionSend(endpoint, m, now);
                } finally {
                    m.release();
                }
            }
            if (r != SendResult.ACCEPTED) {
                // Cannot happen while the accounting above holds; give the room back rather than wedge.
                acknowledged(packets);
            }
        }
    }

    /** Releases the messages not yet handed to the engine (the session closed or the node stopped). */
    void discardQueued() {
        ByteBuf m;
        while ((m = handoff.poll()) != null) {
            m.release();
        }
    }

    /** On the loop: the remote end acknowledged packets, freeing room. */
    private void acknowledged(int packets) {
        if (credit.giveBack(packets)) {
            synchronized (writableSignal) {
                writableSignal.notifyAll();
            }
            Runnable l = writabilityListener;
            if (l != null) {
                try {
                    l.run();
                } catch (RuntimeException e) {
                    System.getLogger(ReliableSession.class.getName()).log(System.Logger.Level.WARNING,
                            "writability listener of a session failed", e);
                }
            }
        }
    }

    /**
     * False while a send would be back-pressured: from the moment a send found the session's buffer
     * full until half of it is free again.
     */
    public boolean isWritable() {
        return open && node.isRunning() && credit.isWritable();
    }

    /**
     * Runs {@code listener} on the node's event loop whenever a back-pressured session can take
     * messages again (half its buffer is free); it must not block.
     */
    public void onWritable(Runnable listener) {
        this.writabilityListener = listener;
    }

    /** The session's counters and windows, read on the event loop. */
    public SessionStatistics statistics() {
        return node.inspect(e -> endpoint.statistics());
    }

    /**
     * A blocking stream over the session: each write becomes one or more messages, and a write
     * waits (on the calling thread) while the session is back-pressured.
     *
     * @throws IllegalStateException when called on the node's event loop
     */
    public OutputStream outputStream() {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                Objects.checkFromIndexSize(off, len, b.length);
                node.requireOffLoop("a session output stream");
                int at = off;
                while (at < off + len) {
                    int n = Math.min(STREAM_CHUNK, off + len - at);
                    byte[] chunk = java.util.Arrays.copyOfRange(b, at, at + n);
                    while (true) {
                        SendResult r = send(chunk);
                        if (r == SendResult.ACCEPTED) {
                            break;
                        }
                        if (r == SendResult.CLOSED) {
                            throw new IOException("session is closed");
                        }
                        awaitWritable();
                    }
                    at += n;
                }
            }
        };
    }

    private void awaitWritable() throws InterruptedIOException {
        synchronized (writableSignal) {
            while (credit.waiting() && open && node.isRunning()) {
                try {
                    writableSignal.wait(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted waiting for the session to take more");
                }
            }
        }
    }

    /**
     * A blocking stream of the bytes of the messages received, in order. Only for a session opened
     * without a message handler. While the reader lags, the session stops taking messages and its
     * advertised window closes, so the remote sender slows down instead of filling memory.
     *
     * @throws IllegalStateException when the session was opened with a handler
     */
    public synchronized InputStream inputStream() {
        if (inbox == null) {
            if (endpoint.handler() != null) {
                throw new IllegalStateException("session was opened with a message handler; open it with null to read"
                        + " it as a stream");
            }
            StreamInbox in = new StreamInbox();
            inbox = in;
            endpoint.handler(m -> in.offer(m.payloadBytes()));
            node.executeOnLoop(() -> {
                NodeStack e = node.engineOnLoop();
                if (e != null) {
                    e.suspendDelivery(endpoint, false, System.nanoTime());
                }
            });
        }
        return inbox;
    }

    /** Closes this end: undelivered messages are dropped and sends return CLOSED. */
    @Override
    public void close() {
        if (open) {
            open = false;
            synchronized (writableSignal) {
                writableSignal.notifyAll();
            }
            StreamInbox in = inbox;
            if (in != null) {
                in.closed = true;
                in.queue.offer(new byte[0]);
            }
            discardQueued();
            node.closeSession(this);
        }
    }

    public boolean isOpen() {
        return open && node.isRunning();
    }

    @Override
    public String toString() {
        return "ReliableSession[" + node.name() + ":" + localPort() + " <-> " + remoteName + ":" + remotePort() + "]";
    }

    /** Messages waiting for a blocking reader; delivery is suspended while it is full. */
    private final class StreamInbox extends InputStream {
        final LinkedBlockingQueue<byte[]> queue = new LinkedBlockingQueue<>();
        private final AtomicBoolean suspended = new AtomicBoolean();
        volatile boolean closed;
        private byte[] current;
        private int position;

        /** On the loop. */
        void offer(byte[] message) {
            queue.add(message);
            if (queue.size() >= STREAM_INBOX && suspended.compareAndSet(false, true)) {
                NodeStack e = node.engineOnLoop();
                if (e != null) {
                    e.suspendDelivery(endpoint, true, System.nanoTime());
                }
            }
        }

        private boolean fill() throws IOException {
            while (current == null || position >= current.length) {
                if (closed && queue.isEmpty()) {
                    return false;
                }
                try {
                    current = queue.take();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted waiting for a message");
                }
                position = 0;
                if (queue.size() <= STREAM_INBOX / 2 && suspended.compareAndSet(true, false)) {
                    node.executeOnLoop(() -> {
                        NodeStack e = node.engineOnLoop();
                        if (e != null) {
                            e.suspendDelivery(endpoint, false, System.nanoTime());
                        }
                    });
                }
                if (current.length == 0 && closed) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public int read() throws IOException {
            node.requireOffLoop("a session input stream");
            if (!fill()) {
                return -1;
            }
            return current[position++] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            Objects.checkFromIndexSize(off, len, b.length);
            node.requireOffLoop("a session input stream");
            if (len == 0) {
                return 0;
            }
            if (!fill()) {
                return -1;
            }
            int n = Math.min(len, current.length - position);
            System.arraycopy(current, position, b, off, n);
            position += n;
            return n;
        }

        @Override
        public int available() {
            return current == null ? 0 : current.length - position;
        }
    }
}
