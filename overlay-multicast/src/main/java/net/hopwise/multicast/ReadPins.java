package net.hopwise.multicast;

import io.netty.buffer.ByteBuf;

/**
 * What one stream's cache pins of the buffers its packets were read into. A packet kept as a view of
 * the datagram it arrived in costs no copy, but keeps the whole read buffer alive (up to 64 KiB under
 * UDP GRO, shared with the datagrams read with it) until the last view of it goes. Each read buffer is
 * counted once, on the held packet from it with the highest sequence: the cache forgets by sequence,
 * so that packet is the last of the buffer to go. A packet from a read buffer less than a quarter
 * filled is copied (a view would pin four times its bytes or more), and so is one whose buffer would
 * take the stream's count past its budget: packets that trickle in a few per read are copied, and a
 * run read at once is kept for about what its datagrams take. Sans-IO; only on the node's thread.
 */
final class ReadPins {
    /** A read buffer filled to less than its capacity over this is too sparse to keep views of. */
    static final int SPARSE = 4;

    /** Bytes of read buffers counted on each slot of the cache; 0 for a copy or a packet not counted. */
    private final int[] counted;
    private final int capacity;
    private long pinned;
    /** The read buffer of the last packet kept as a view, and the sequence it is counted on. */
    private Object lastRead;
    private long countedOn = -1;

    ReadPins(int capacity) {
        this.capacity = capacity;
        this.counted = new int[capacity];
    }

    /** Bytes of read buffers the cache holds views of, as counted. */
    long pinned() {
        return pinned;
    }

    /**
     * Keeps a packet for {@code sequence}, which the caller holds in the cache's slot until it calls
     * {@link #released}: a view with a reference of its own when its read buffer is counted already or
     * fits within {@code budget}, else a copy. {@code held} tells whether the cache holds a sequence.
     */
    ByteBuf keep(long sequence, ByteBuf received, long budget, java.util.function.LongPredicate held,
            io.netty.buffer.ByteBufAllocator allocator) {
        ByteBuf read = root(received);
        int slot = (int) (sequence % capacity);
        if (read == lastRead && countedOn >= 0 && held.test(countedOn)) {
            if (sequence > countedOn) {
                int s = (int) (countedOn % capacity);
                counted[slot] = counted[s];
                counted[s] = 0;
                countedOn = sequence;
            }
            return received.retainedSlice();
        }
        int bytes = read.capacity();
        // The bytes the read filled (Netty sets the reader's writer index to what it read).
        if (read.writerIndex() < bytes / SPARSE || pinned + bytes > budget) {
            return allocator.buffer(received.readableBytes()).writeBytes(received, received.readerIndex(),
                    received.readableBytes());
        }
        pinned += bytes;
        counted[slot] = bytes;
        lastRead = read;
        countedOn = sequence;
        return received.retainedSlice();
    }

    /** The cache gave up the packet of {@code sequence}. */
    void released(long sequence) {
        int slot = (int) (sequence % capacity);
        pinned -= counted[slot];
        counted[slot] = 0;
        if (sequence == countedOn) {
            countedOn = -1;
            lastRead = null;
        }
    }

    void clear() {
        java.util.Arrays.fill(counted, 0);
        pinned = 0;
        countedOn = -1;
        lastRead = null;
    }

    /** The buffer a view was cut from, through any slices and wrappers. */
    static ByteBuf root(ByteBuf b) {
        ByteBuf r = b;
        for (ByteBuf u = r.unwrap(); u != null; u = r.unwrap()) {
            r = u;
        }
        return r;
    }
}
