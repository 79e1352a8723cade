package net.hopwise.overlay.spi;

import io.netty.buffer.ByteBuf;
import java.net.InetSocketAddress;

/**
 * A stage between the socket and the frame stage that sees every datagram both ways, whole: where
 * link security seals and opens datagrams, or a compression or framing layer would sit. Its overhead
 * is fixed for the node's life and taken off every payload limit of the node (fragments, session and
 * real-time payloads, link-state updates, module bodies), so that a sealed datagram still fits the
 * node's largest datagram. In a running node it is a named handler of the channel pipeline for what
 * arrives (between the user's handlers and the frame stage); what leaves passes it as the node
 * writes it. The simulator runs it at the same two points.
 */
public interface DatagramStage {
    /** Bytes it adds to every datagram it sends (headers and trailers together). */
    int overhead();

    /**
     * A datagram that arrived, before the frame check. Returns what goes on: the same buffer, or a new
     * one that the node releases once the chain is done with it; null when the stage drops it
     * (counted by the stage, with a drop reason of its module). The caller keeps ownership of {@code
     * datagram}.
     */
    ByteBuf inbound(InetSocketAddress from, ByteBuf datagram, long nowNanos);

    /**
     * A datagram leaving on {@code link} for {@code address} (which differs from the link's address
     * only for a probe). {@code link} is null for a datagram that a stage further from the socket sent
     * of its own ({@link ModuleContext#sendDatagram}) to an address that is no neighbour's. Takes
     * ownership of {@code datagram}; returns what goes on the wire (owned by the node from then on), or
     * null when the stage drops it.
     */
    ByteBuf outbound(LinkView link, InetSocketAddress address, ByteBuf datagram, long nowNanos);

    /**
     * Where a stage runs per-datagram work that it has already ordered and numbered on the node's
     * thread and that needs nothing of the node's state any more: the cipher over one datagram's
     * bytes. A running node's runtime may lend each event loop a helper thread, so that the loop
     * prepares the next datagrams while the helper seals the last ones; the runtime finishes
     * everything handed over on a loop before anything that loop sends reaches the socket. Where
     * nothing is lent (the simulator, a test driving a node by hand, a runtime without helpers)
     * {@link #run} does the work at once, so a stage behaves the same everywhere but for the thread
     * its work runs on.
     *
     * <p>The work must not touch anything the node's thread may change meanwhile, and whatever it
     * writes into a datagram already returned must leave that datagram harmless should it leave
     * unfinished (by a link transport that bypasses the runtime): sealed data, or nothing readable.
     */
    final class Aside {
        /** Work handed aside; {@code aside} tells whether it runs on the helper or on the node's thread. */
        public interface Work {
            void run(boolean aside);
        }

        /** What a runtime lends its event loops: takes work to run, in any order, before the next write. */
        public interface Lender {
            void lend(Work work);
        }

        private static final ThreadLocal<Lender> LENDER = new ThreadLocal<>();

        private Aside() {}

        /** Hands {@code work} to the helper lent to this thread, or runs it now when there is none. */
        public static void run(Work work) {
            Lender lender = LENDER.get();
            if (lender == null) {
                work.run(false);
            } else {
                lender.lend(work);
            }
        }

        /** For a node runtime: lends {@code lender} to the calling thread (null takes it back). */
        public static void lendToThisThread(Lender lender) {
            if (lender == null) {
                LENDER.remove();
            } else {
                LENDER.set(lender);
            }
        }

        /** What was lent to the calling thread, or null. */
        public static Lender lentToThisThread() {
            return LENDER.get();
        }
    }
}
