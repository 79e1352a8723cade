package net.hopwise.overlay.forward;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Puts fragmented messages back together at their destination, within a memory budget.
 *
 * <p>Fragments are copied out of the datagrams they came in, so the budget counts exactly what is
 * held. Memory is bounded twice: a message may not exceed {@code maxMessageBytes},
 * and all partial messages together may not exceed {@code maxBufferedBytes}; when a new fragment
 * would overflow the budget the oldest partial message is evicted. A partial message that does not
 * complete within {@code timeoutNanos} of its first fragment is dropped. Sans-IO: time is passed in.
 *
 * <p>The number of partial messages is bounded by the budget too, at one full fragment each: every
 * fragment but the last is full, so honest partial messages hold at least that much, while a sender
 * of nothing but short (or empty) last fragments of distinct messages would otherwise make the node
 * keep a record, an array and a buffer per message that the byte count hardly sees.
 */
public final class Reassembler {
    private final ByteBufAllocator allocator;
    private final int maxMessageBytes;
    private final long maxBufferedBytes;
    private final long timeoutNanos;
    private final int maxFragmentPayload;
    private final int maxPartials;

    /** Insertion order is age order, which makes both eviction and expiry a look at the head. */
    private final Map<Key, Partial> partials = new HashMap<>();
    private final ArrayDeque<Partial> byAge = new ArrayDeque<>();
    private long bufferedBytes;

    private long completed;
    private long timedOut;
    private long evicted;
    private long rejected;

    public Reassembler(ByteBufAllocator allocator, int maxMessageBytes, long maxBufferedBytes, long timeoutNanos,
            int maxFragmentPayload) {
        this.allocator = allocator;
        this.maxMessageBytes = maxMessageBytes;
        this.maxBufferedBytes = maxBufferedBytes;
        this.timeoutNanos = timeoutNanos;
        this.maxFragmentPayload = maxFragmentPayload;
        this.maxPartials = (int) Math.max(1, Math.min(Integer.MAX_VALUE, maxBufferedBytes / maxFragmentPayload));
    }

    /** What became of a fragment. */
    public enum Outcome { COMPLETE, PENDING, DUPLICATE, REJECTED }

    /** The result of {@link #accept}: a complete message is owned by the caller, who must release it. */
    public record Result(Outcome outcome, ByteBuf message, int droppedFragments) {
        static final Result PENDING = new Result(Outcome.PENDING, null, 0);
        static final Result DUPLICATE = new Result(Outcome.DUPLICATE, null, 0);
    }

    /**
     * Takes one fragment. The reassembler retains what it keeps; the caller still owns {@code payload}.
     *
     * @return the outcome, with the whole message when this fragment completed it
     */
    public Result accept(long origin, int messageId, int fragmentIndex, int fragmentCount, ByteBuf payload,
            long nowNanos) {
        expire(nowNanos);
        int length = payload.readableBytes();
        if ((long) fragmentCount * maxFragmentPayload < length
                || (long) (fragmentCount - 1) * maxFragmentPayload >= maxMessageBytes
                || (fragmentIndex < fragmentCount - 1 && length != maxFragmentPayload)
                || length > maxFragmentPayload) {
            rejected++;
            return new Result(Outcome.REJECTED, null, 1);
        }
        Key key = new Key(origin, messageId);
        Partial partial = partials.get(key);
        int dropped = 0;
        if (partial == null) {
            while (partials.size() >= maxPartials) {
                Partial victim = byAge.pollFirst();
                partials.remove(victim.key);
                dropped += discard(victim);
                evicted++;
            }
            partial = new Partial(key, fragmentCount, nowNanos);
            partials.put(key, partial);
            byAge.addLast(partial);
        } else if (partial.fragments.length != fragmentCount) {
            rejected++;
            return new Result(Outcome.REJECTED, null, 1);
        }
        if (partial.fragments[fragmentIndex] != null) {
            return Result.DUPLICATE;
        }
        while (bufferedBytes + length > maxBufferedBytes) {
            Partial victim = oldestOtherThan(partial);
            if (victim == null) {
                break;
            }
            byAge.remove(victim);
            partials.remove(victim.key);
            dropped += discard(victim);
            evicted++;
        }
        if (bufferedBytes + length > maxBufferedBytes) {
            partials.remove(key);
            byAge.remove(partial);
            dropped += discard(partial) + 1;
            evicted++;
            return new Result(Outcome.REJECTED, null, dropped);
        }
        // A copy, not a retained slice: a slice would pin the whole receive buffer it came in (up to
        // a batch of datagrams), which would make the memory budget a fiction.
        partial.fragments[fragmentIndex] = allocator.buffer(length).writeBytes(payload, payload.readerIndex(), length);
        partial.received++;
        partial.bytes += length;
        bufferedBytes += length;
        if (partial.bytes > maxMessageBytes) {
            partials.remove(key);
            byAge.remove(partial);
            rejected++;
            return new Result(Outcome.REJECTED, null, discard(partial));
        }
        if (partial.received < fragmentCount) {
            return dropped == 0 ? Result.PENDING : new Result(Outcome.PENDING, null, dropped);
        }
        partials.remove(key);
        byAge.remove(partial);
        ByteBuf message = allocator.buffer(partial.bytes);
        for (ByteBuf fragment : partial.fragments) {
            message.writeBytes(fragment);
            fragment.release();
        }
        bufferedBytes -= partial.bytes;
        completed++;
        return new Result(Outcome.COMPLETE, message, dropped);
    }

    /** Drops partial messages older than the timeout; returns how many fragments were dropped. */
    public int expire(long nowNanos) {
        int dropped = 0;
        while (!byAge.isEmpty() && nowNanos - byAge.peekFirst().firstSeenNanos >= timeoutNanos) {
            Partial old = byAge.pollFirst();
            partials.remove(old.key);
            dropped += discard(old);
            timedOut++;
        }
        return dropped;
    }

    /** When the oldest partial message times out, or {@link Long#MAX_VALUE} when none is held. */
    public long nextDeadlineNanos() {
        return byAge.isEmpty() ? Long.MAX_VALUE : byAge.peekFirst().firstSeenNanos + timeoutNanos;
    }

    /** Releases everything held. */
    public void close() {
        for (Iterator<Partial> it = byAge.iterator(); it.hasNext(); ) {
            discard(it.next());
        }
        byAge.clear();
        partials.clear();
    }

    public long bufferedBytes() {
        return bufferedBytes;
    }

    public int partialMessages() {
        return partials.size();
    }

    public long completed() {
        return completed;
    }

    public long timedOut() {
        return timedOut;
    }

    public long evicted() {
        return evicted;
    }

    public long rejected() {
        return rejected;
    }

    private int discard(Partial partial) {
        int held = 0;
        for (int i = 0; i < partial.fragments.length; i++) {
            ByteBuf fragment = partial.fragments[i];
            if (fragment != null) {
                fragment.release();
                partial.fragments[i] = null;
                held++;
            }
        }
        bufferedBytes -= partial.bytes;
        partial.bytes = 0;
        return held;
    }

    private Partial oldestOtherThan(Partial keep) {
        for (Partial p : byAge) {
            if (p != keep) {
                return p;
            }
        }
        return null;
    }

    private record Key(long origin, int messageId) {}

    private static final class Partial {
        final Key key;
        final ByteBuf[] fragments;
        final long firstSeenNanos;
        int received;
        int bytes;

        Partial(Key key, int count, long firstSeenNanos) {
            this.key = key;
            this.fragments = new ByteBuf[count];
            this.firstSeenNanos = firstSeenNanos;
        }
    }
}
