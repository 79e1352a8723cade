package net.hopwise.overlay.security;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import net.hopwise.overlay.spi.DatagramStage;

/**
 * One datagram's seal, numbered on the node's thread and run wherever the node's runtime runs work
 * aside ({@link DatagramStage.Aside}): the helper thread of a running node's loop, or at once. The
 * node's thread picks the session and the counter, so the counters still follow the order in which
 * datagrams leave; the cipher, the gather of the plaintext and the copy into the datagram the socket
 * sends run in the job.
 *
 * <p>The datagram handed back to the node holds zeros until the job has run: should it leave
 * unfinished (a link transport that does not wait for the runtime), it carries nothing readable and
 * its receiver drops it as malformed. The job owns the plaintext and a reference to the datagram, and
 * releases both, so that a datagram dropped meanwhile is not written after its memory was reused.
 */
final class SealAside implements DatagramStage.Aside.Work {
    /** Per thread: the node's thread and the helper each gather and seal in an array of their own. */
    private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[2048]);

    private final Session session;
    private final long counter;
    private final ByteBuf plain;
    private final ByteBuf out;

    private SealAside(Session session, long counter, ByteBuf plain, ByteBuf out) {
        this.session = session;
        this.counter = counter;
        this.plain = plain;
        this.out = out;
    }

    /**
     * Seals {@code plain} (taking ownership of it, whatever happens) with the session's next counter;
     * returns the datagram to send, filled in now or before the runtime writes it to the socket.
     */
    static ByteBuf seal(Session session, ByteBuf plain, ByteBufAllocator alloc) {
        int length = plain.readableBytes() + SecureWire.DATA_OVERHEAD;
        ByteBuf out;
        try {
            out = alloc.ioBuffer(length);
        } catch (RuntimeException e) {
            plain.release();
            throw e;
        }
        out.setZero(0, length);
        out.writerIndex(length);
        long counter = session.nextCounter();
        try {
            DatagramStage.Aside.run(new SealAside(session, counter, plain, out.retain()));
        } catch (RuntimeException e) {
            out.release(); // run at once and failed: the job released what it owned
            throw e;
        }
        return out;
    }

    @Override
    public void run(boolean aside) {
        try {
            int n = plain.readableBytes();
            byte[] buf = SCRATCH.get();
            if (buf.length < n + SecureWire.DATA_OVERHEAD) {
                buf = new byte[n + SecureWire.DATA_OVERHEAD];
                SCRATCH.set(buf);
            }
            // A composite datagram (a header and a shared body) is gathered once, right behind the
            // room for the sealing header, and sealed there in place: the JDK's ciphers are fastest
            // over arrays, and the socket's direct buffer then takes one copy.
            plain.getBytes(plain.readerIndex(), buf, SecureWire.DATA_HEADER_BYTES, n);
            int w = session.sealAt(counter, aside, buf, 0, n);
            out.setBytes(0, buf, 0, w);
        } finally {
            plain.release();
            out.release();
        }
    }
}
