package net.hopwise.multicast;

import io.netty.buffer.ByteBuf;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.spi.DropCounter;

/**
 * Messages of a member node still missing fragments, keyed by (source, message id): copies of the
 * fragments received so far, bounded in number and in time, so a lost fragment costs its message and
 * nothing more. Only member nodes hold any; only on the node's thread.
 */
final class Reassembly {
    private record Key(NodeId source, long messageId) {}

    private static final class Partial {
        final MulticastPacket first;
        final byte[][] parts;
        final long deadlineNanos;
        int received;
        int bytes;

        Partial(MulticastPacket first, long deadlineNanos) {
            this.first = first;
            this.parts = new byte[first.fragments()][];
            this.deadlineNanos = deadlineNanos;
        }

        boolean sameMessage(MulticastPacket p) {
            return p.group().equals(first.group()) && p.port() == first.port() && p.fragments() == first.fragments();
        }
    }

    private final int maxMessages;
    private final int maxMessageBytes;
    private final long timeoutNanos;
    private final DropCounter incomplete;
    private final DropCounter malformed;
    /** In arrival order: every message has the same timeout, so the first is the next to expire. */
    private final Map<Key, Partial> partials = new LinkedHashMap<>();

    Reassembly(int maxMessages, int maxMessageBytes, long timeoutNanos, DropCounter incomplete, DropCounter malformed) {
        this.maxMessages = maxMessages;
        this.maxMessageBytes = maxMessageBytes;
        this.timeoutNanos = timeoutNanos;
        this.incomplete = incomplete;
        this.malformed = malformed;
    }

    /**
     * Takes one fragment of a message of several; {@code bytes} is the fragment (indices unmoved).
     *
     * @return the whole message once its last fragment arrived, else null
     */
    byte[] add(MulticastPacket p, ByteBuf bytes, long nowNanos) {
        Key key = new Key(p.source(), p.messageId());
        Partial partial = partials.get(key);
        if (partial == null) {
            if (partials.size() >= maxMessages) {
                // The oldest is the likeliest to have lost a fragment already.
                Iterator<Partial> oldest = partials.values().iterator();
                oldest.next();
                oldest.remove();
                incomplete.increment();
            }
            partial = new Partial(p, nowNanos + timeoutNanos);
            partials.put(key, partial);
        } else if (!partial.sameMessage(p)) {
            malformed.increment();
            return null;
        }
        if (partial.parts[p.fragment()] != null) {
            return null; // a duplicate
        }
        int length = bytes.readableBytes();
        if (partial.bytes + length > maxMessageBytes) {
            partials.remove(key);
            malformed.increment();
            return null;
        }
        byte[] part = new byte[length];
        bytes.getBytes(bytes.readerIndex(), part);
        partial.parts[p.fragment()] = part;
        partial.bytes += length;
        if (++partial.received < partial.parts.length) {
            return null;
        }
        partials.remove(key);
        byte[] whole = new byte[partial.bytes];
        int at = 0;
        for (byte[] b : partial.parts) {
            System.arraycopy(b, 0, whole, at, b.length);
            at += b.length;
        }
        return whole;
    }

    long nextDeadlineNanos() {
        return partials.isEmpty() ? Long.MAX_VALUE : partials.values().iterator().next().deadlineNanos;
    }

    void expire(long nowNanos) {
        for (Iterator<Partial> i = partials.values().iterator(); i.hasNext(); ) {
            if (i.next().deadlineNanos - nowNanos > 0) {
                break;
            }
            i.remove();
            incomplete.increment();
        }
    }

    int pending() {
        return partials.size();
    }

    void clear() {
        partials.clear();
    }
}
