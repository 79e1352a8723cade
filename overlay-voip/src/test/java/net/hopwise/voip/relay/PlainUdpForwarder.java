package net.hopwise.voip.relay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import net.hopwise.overlay.impair.ImpairmentConfig;
import net.hopwise.overlay.impair.ImpairmentModel;

/**
 * The control of the loss-recovery figures: a call's media forwarded as plain UDP, with no recovery,
 * across the same impairment models the overlay links get (one {@link ImpairmentModel} per link and
 * direction, in series for a chain), so that the two columns of a figure differ only by what the
 * overlay adds. The callee's SDP names {@link #port()}; each caller source gets a socket of its own
 * towards the callee, so several calls can share one callee media port (SIPp's echoing uas), and the
 * callee's answer to that socket goes back to that caller.
 *
 * <p>Each direction of each call is counted where it leaves the forwarder, with the same
 * {@link ReceptionStats} the relay uses at its egress, numbered by arrival at the forwarder (the
 * echo's RTP sequence numbers would count a packet lost on the way out a second time on the way
 * back, which the overlay's flow numbering does not).
 */
final class PlainUdpForwarder implements AutoCloseable {
    private static final long DEADLINE_NANOS = RelayConfig.DEFAULT_MEDIA_DEADLINE.toNanos();

    private final DatagramChannel callerSide;
    private final InetSocketAddress callee;
    private final List<ImpairmentModel> forward = new ArrayList<>();
    private final List<ImpairmentModel> back = new ArrayList<>();
    private final ScheduledThreadPoolExecutor departures = new ScheduledThreadPoolExecutor(1, r -> daemon(r, "plain-udp-departures"));
    private final Map<SocketAddress, Leg> legs = new ConcurrentHashMap<>();
    private volatile boolean open = true;

    /** One caller's media through the forwarder: its socket towards the callee and both directions' counts. */
    static final class Leg {
        final SocketAddress caller;
        final DatagramChannel calleeSide;
        /** Touched only on the departures thread. */
        final ReceptionStats toCallee = new ReceptionStats(32, DEADLINE_NANOS);
        final ReceptionStats toCaller = new ReceptionStats(32, DEADLINE_NANOS);
        private long inFromCaller;
        private long inFromCallee;

        Leg(SocketAddress caller, DatagramChannel calleeSide) {
            this.caller = caller;
            this.calleeSide = calleeSide;
        }
    }

    /**
     * @param links the impairment of each link on the way, one per link, applied in both directions
     * @param seed seeds the models (each link and direction its own stream)
     * @param callee where the callee takes its media
     */
    PlainUdpForwarder(List<ImpairmentConfig> links, long seed, InetSocketAddress callee) {
        this.callee = callee;
        for (int i = 0; i < links.size(); i++) {
            forward.add(new ImpairmentModel(links.get(i), seed * 31 + 2L * i));
            back.add(new ImpairmentModel(links.get(links.size() - 1 - i), seed * 31 + 2L * i + 1));
        }
        try {
            callerSide = DatagramChannel.open().bind(new InetSocketAddress(callee.getAddress(), 0));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        daemon(this::readCallers, "plain-udp-callers").start();
    }

    /** The port the callee's SDP names, so that the caller's media comes here. */
    int port() {
        return ((InetSocketAddress) localAddress(callerSide)).getPort();
    }

    /** Every caller seen, in no order; read their counts after {@link #close()}. */
    List<Leg> legs() {
        return List.copyOf(legs.values());
    }

    private void readCallers() {
        ByteBuffer buffer = ByteBuffer.allocate(2048);
        while (open) {
            SocketAddress from;
            try {
                buffer.clear();
                from = callerSide.receive(buffer);
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) {
                continue;
            }
            buffer.flip();
            Leg leg = legs.computeIfAbsent(from, this::newLeg);
            if (leg != null) {
                pass(buffer, forward, leg, true);
            }
        }
    }

    private Leg newLeg(SocketAddress caller) {
        try {
            DatagramChannel out = DatagramChannel.open().bind(new InetSocketAddress(callee.getAddress(), 0));
            Leg leg = new Leg(caller, out);
            daemon(() -> readCallee(leg), "plain-udp-callee").start();
            return leg;
        } catch (IOException e) {
            return null;
        }
    }

    private void readCallee(Leg leg) {
        ByteBuffer buffer = ByteBuffer.allocate(2048);
        while (open) {
            try {
                buffer.clear();
                leg.calleeSide.receive(buffer);
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) {
                continue;
            }
            buffer.flip();
            pass(buffer, back, leg, false);
        }
    }

    /** Offers the datagram to each link's model in turn; schedules its delivery when every link passes it. */
    private void pass(ByteBuffer datagram, List<ImpairmentModel> links, Leg leg, boolean towardsCallee) {
        byte[] copy = new byte[datagram.remaining()];
        datagram.get(copy);
        long arrival = System.nanoTime();
        long sequence;
        synchronized (leg) {
            sequence = towardsCallee ? leg.inFromCaller++ : leg.inFromCallee++;
        }
        long at = arrival;
        long[] slots = new long[2];
        for (ImpairmentModel model : links) {
            int n;
            synchronized (model) {
                n = model.admit(copy.length, at, slots);
            }
            if (n == 0) {
                return;
            }
            // A duplicate would be the same datagram at the same instant: the egress counts it once.
            at = slots[0];
        }
        long delay = Math.max(0, at - System.nanoTime());
        departures.schedule(() -> deliver(copy, arrival, sequence, leg, towardsCallee), delay, TimeUnit.NANOSECONDS);
    }

    private void deliver(byte[] datagram, long arrival, long sequence, Leg leg, boolean towardsCallee) {
        ReceptionStats stats = towardsCallee ? leg.toCallee : leg.toCaller;
        if (stats.record(sequence, System.nanoTime() - arrival, datagram.length) != ReceptionStats.Verdict.FORWARD) {
            return;
        }
        try {
            if (towardsCallee) {
                leg.calleeSide.send(ByteBuffer.wrap(datagram), callee);
            } else {
                callerSide.send(ByteBuffer.wrap(datagram), leg.caller);
            }
        } catch (IOException e) {
            // The phone went away at the end of the call: nothing to forward to.
        }
    }

    /** Stops forwarding and waits for the departures already scheduled, so that the counts are final. */
    @Override
    public void close() {
        open = false;
        departures.shutdown();
        try {
            departures.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeQuietly(callerSide);
        legs.values().forEach(leg -> closeQuietly(leg.calleeSide));
    }

    private static SocketAddress localAddress(DatagramChannel channel) {
        try {
            return channel.getLocalAddress();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void closeQuietly(DatagramChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // Closing is best effort at the end of a run.
        }
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
