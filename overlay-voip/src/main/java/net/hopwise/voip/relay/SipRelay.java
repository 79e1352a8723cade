package net.hopwise.voip.relay;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import net.hopwise.overlay.MessageHandler;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.ReliableSession;
import net.hopwise.overlay.SendResult;
import net.hopwise.voip.sip.SipFramer;
import net.hopwise.voip.sip.SipMessage;
import net.hopwise.voip.sip.SipParseError;

/**
 * A running SIP relay beside an overlay node: the thin IO shell around {@link SipProxy}. Phones
 * reach it on UDP and TCP; other relays over reliable overlay sessions on the signalling port;
 * media goes through {@link RelayMedia}. All of the relay's state and its SIP sockets live on the
 * node's own event loop ({@link NodeLoop}), so the overlay's callbacks reach the relay without a
 * hand-over and the relay's sends enter the node on the thread that sends them; the phones' media
 * sockets too for its first calls, and by default those of the calls beyond {@link
 * RelayConfig#mediaThreadCalls} on a loop of their own that hands packets over a turn at a time.
 * Start it from outside that loop (it waits for its sockets to bind).
 *
 * <p>It is a little over 400 lines because its two inner classes, the proxy's send path and a phone's
 * TCP connection, read the relay's sockets, connection table and proxy, all of which live on the
 * node's loop; made separate classes, each would take all of them.
 *
 * <pre>{@code
 * SipRelay relay = SipRelay.start(node, RelayConfig.builder()
 *         .sipAddress(new InetSocketAddress("192.0.2.10", 5060)).route("example.net=paris").build());
 * }</pre>
 */
public final class SipRelay implements AutoCloseable {
    /** The longest the relay sleeps between timer runs: media timeouts and registrations need no finer. */
    private static final long MAX_TIMER_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** The most often a stream of SIP messages runs the proxy's timers (see {@link TimerScans}). */
    private static final long MIN_SCAN_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private final OverlayNode node;
    private final RelayConfig config;
    private final NodeLoop nodeLoop;
    private final EventLoop loop;
    private final Map<String, ReliableSession> sessions = new ConcurrentHashMap<>();
    private final Map<InetSocketAddress, Channel> connections = new HashMap<>();
    private Channel udp;
    private Channel tcp;
    private RelayMedia media;
    /** The loop of the phones' media sockets beyond the node's loop's share; null when off. */
    private EventLoopGroup mediaGroup;
    private SipProxy proxy;
    private RelayMeters meters;
    private CallEnds ends;
    private ScheduledFuture<?> timer;
    private long timerAt = Long.MAX_VALUE;
    private final TimerScans scans;
    private volatile boolean open = true;

    private SipRelay(OverlayNode node, RelayConfig config) {
        this.node = node;
        this.config = config;
        this.nodeLoop = NodeLoop.of(node);
        this.loop = nodeLoop.loop();
        this.scans = new TimerScans(Math.min(MIN_SCAN_INTERVAL_NANOS, config.t1().toNanos() / 10));
    }

    /** Binds the relay's SIP sockets and starts taking calls; returns once bound. */
    public static SipRelay start(OverlayNode node, RelayConfig config) {
        SipRelay relay = new SipRelay(node, config);
        try {
            relay.bind();
            return relay;
        } catch (RuntimeException e) {
            relay.close();
            throw e;
        }
    }

    private void bind() {
        // A socket of the SIP address's own family: an IPv4 relay then sends as IPv4, not as mapped IPv6.
        udp = new Bootstrap().group(loop)
                .channelFactory(() -> nodeLoop.newDatagram(config.sipAddress().getAddress()))
                .handler(new SimpleChannelInboundHandler<DatagramPacket>() {
                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket p) {
                        proxy.onPhoneDatagram(p.content(), p.sender(), System.nanoTime());
                        reschedule();
                    }
                })
                .bind(config.sipAddress()).syncUninterruptibly().channel();
        InetSocketAddress bound = (InetSocketAddress) udp.localAddress();
        if (config.tcp()) {
            tcp = new ServerBootstrap().group(loop).channel(nodeLoop.serverType())
                    .childHandler(new io.netty.channel.ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(new TcpConnection());
                        }
                    })
                    .bind(bound).syncUninterruptibly().channel();
        }
        call(() -> {
            EventLoop mediaLoop = null;
            if (config.mediaThread() != MediaThread.OFF) {
                mediaGroup = nodeLoop.newPhoneLoopGroup();
                mediaLoop = mediaGroup.next();
            }
            int nodeLoopCalls = config.mediaThread() == MediaThread.AUTO ? config.mediaThreadCalls() : 0;
            media = new RelayMedia(node, nodeLoop, Calls.literal(config.mediaAddress()), mediaLoop, nodeLoopCalls);
            proxy = new SipProxy(node.name(), config, bound.getPort(), new Signal(), media, udp.alloc());
            node.findModule(RegistrationDirectory.class).ifPresent(proxy::directory);
            media.proxy(proxy);
            double accessDelayMs = config.accessDelay().toNanos() / 1e6;
            CallRecords records = config.callRecords() == null ? null
                    : CallRecords.open(config.callRecords(), node.name(), accessDelayMs);
            meters = new RelayMeters(node.meterRegistry(), node.name(),
                    CallEnds.counters(proxy.counters(), records).keySet());
            ends = new CallEnds(meters, records, accessDelayMs);
            proxy.onCallEnded(ends);
            return null;
        });
        node.acceptSessions(config.signallingPort(), session -> {
            sessions.put(session.remoteName(), session);
            return signalHandler();
        });
    }

    /** Session messages arrive on the node's loop, which is the relay's: handled at once. */
    private MessageHandler signalHandler() {
        return msg -> {
            if (open) {
                proxy.onNodeMessage(msg.sourceName(), msg.payload(), System.nanoTime());
                reschedule();
            }
        };
    }

    /** The session to a peer relay, opened on first use (or accepted from it). */
    private ReliableSession session(String peer) {
        ReliableSession s = sessions.get(peer);
        if (s != null && s.isOpen()) {
            return s;
        }
        try {
            s = node.openSession(config.signallingPort(), peer, config.signallingPort(), signalHandler());
        } catch (IllegalArgumentException | IllegalStateException e) {
            // The peer's session was accepted meanwhile, or the node stopped.
            return sessions.get(peer);
        }
        sessions.put(peer, s);
        return s;
    }

    private void timerFired() {
        timer = null;
        reschedule();
    }

    /**
     * Runs the proxy's timers (now, or by the next scan {@link TimerScans} allows) and arms the loop's
     * timer for the next thing due, unless armed earlier.
     */
    private void reschedule() {
        long now = System.nanoTime();
        if (!scans.scanNow(now, timer != null)) {
            long at = scans.nextScanNanos();
            if (timerAt - at > 0) {
                timer.cancel(false);
                timerAt = at;
                timer = loop.schedule(this::timerFired, Math.max(0, at - now), TimeUnit.NANOSECONDS);
            }
            return;
        }
        long next = Math.min(proxy.onTimer(now), now + MAX_TIMER_NANOS);
        if (timer == null) {
            meters.refresh(proxy.state(), ends.counters(proxy.counters()));
        }
        if (timer != null && timerAt - next <= 0) {
            return;
        }
        if (timer != null) {
            timer.cancel(false);
        }
        timerAt = next;
        timer = loop.schedule(this::timerFired, Math.max(0, next - now), TimeUnit.NANOSECONDS);
    }

    /** The address phones send SIP to (with the real port when port 0 was configured). */
    public InetSocketAddress sipAddress() {
        return (InetSocketAddress) udp.localAddress();
    }

    /** The loop the relay runs on: its node's. */
    EventLoop loop() {
        return loop;
    }

    public OverlayNode node() {
        return node;
    }

    public RelayConfig config() {
        return config;
    }

    /** The calls the relay holds now, ended ones still lingering included. */
    public List<CallStatistics> calls() {
        return call(() -> proxy.calls(System.nanoTime()));
    }

    /**
     * Receives each call's final record (streams, counters, quality) when the relay forgets the call,
     * on the relay's loop: it must not block. It comes after the call's meters and its line in the
     * call records file, which it cannot replace; a second listener replaces the first.
     */
    public void onCallEnded(Consumer<CallStatistics> listener) {
        java.util.Objects.requireNonNull(listener, "listener");
        call(() -> {
            ends.listener(listener);
            return null;
        });
    }

    /** What the relay holds: all zero (but registrations) once calls ended and lingered. */
    public RelayState state() {
        return call(() -> proxy.state());
    }

    /** Counters of what was refused, dropped or retried, by reason (and the call records written and lost). */
    public Map<String, Long> counters() {
        return call(() -> ends.counters(proxy.counters()));
    }

    /** The registrar's bindings by address of record. */
    public Map<String, List<Registrar.Binding>> registrations() {
        return call(() -> proxy.registrar().bindings());
    }

    private <T> T call(Callable<T> task) {
        if (loop.inEventLoop()) {
            try {
                return task.call();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        try {
            return loop.submit(task).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for the relay", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    @Override
    public void close() {
        if (!open) {
            return;
        }
        open = false;
        try {
            node.acceptSessions(config.signallingPort(), null);
        } catch (RuntimeException e) {
            // The node stopped first: it took its sessions with it.
        }
        if (!loop.isShuttingDown()) {
            call(() -> {
                if (timer != null) {
                    timer.cancel(false);
                }
                if (proxy != null) {
                    // The calls still held end here, each with its record and meters.
                    proxy.close(System.nanoTime());
                }
                if (meters != null) {
                    meters.remove();
                }
                if (media != null) {
                    media.close();
                }
                for (Channel c : connections.values()) {
                    c.close();
                }
                return null;
            });
        }
        // After the sockets' close was asked for (above, on the node's loop): the loop runs those
        // closes before it ends, and closes whatever a node stopped first left open.
        if (mediaGroup != null) {
            mediaGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS);
            if (!loop.inEventLoop()) {
                mediaGroup.terminationFuture().awaitUninterruptibly(10, TimeUnit.SECONDS);
            }
        }
        if (ends != null) {
            // After the proxy's close queued the last calls' records: they are on disk when close returns.
            ends.close(!loop.inEventLoop());
        }
        sessions.values().forEach(ReliableSession::close);
        // A node stopped first took its loop, and the loop closed every socket on it as it ended.
        if (udp != null && !loop.isShuttingDown()) {
            udp.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
        if (tcp != null && !loop.isShuttingDown()) {
            tcp.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }

    /** Where the proxy's SIP goes. Runs on the relay's loop. */
    private final class Signal implements SignalIo {
        @Override
        public void toPhone(Hop.Phone to, ByteBuf message) {
            if (!to.tcp()) {
                udp.writeAndFlush(new DatagramPacket(message, to.address()));
                return;
            }
            Channel c = connections.get(to.address());
            if (c == null) {
                proxy.counters.nodeSendFailures++;
                message.release();
                return;
            }
            c.writeAndFlush(message);
        }

        @Override
        public void toNode(String name, ByteBuf envelope) {
            try {
                ReliableSession s = session(name);
                SendResult r = s == null ? SendResult.NO_ROUTE : s.send(envelope);
                if (r != SendResult.ACCEPTED) {
                    proxy.counters.nodeSendFailures++;
                }
            } catch (IllegalArgumentException e) {
                proxy.counters.nodeSendFailures++;
            } finally {
                envelope.release();
            }
        }
    }

    /** One phone's TCP connection: Content-Length framing by {@link SipFramer}, replies on the same connection. */
    private final class TcpConnection extends ChannelInboundHandlerAdapter implements SipFramer.Sink {
        private SipFramer framer;
        private Hop.Phone peer;
        private ChannelHandlerContext ctx;

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            this.ctx = ctx;
            this.framer = new SipFramer(proxy.parser, ctx.alloc());
            this.peer = new Hop.Phone(Calls.unscoped((InetSocketAddress) ctx.channel().remoteAddress()), true);
            connections.put(peer.address(), ctx.channel());
            ctx.fireChannelActive();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (!(msg instanceof ByteBuf chunk)) {
                io.netty.util.ReferenceCountUtil.release(msg);
                return;
            }
            framer.read(chunk, this);
            reschedule();
            if (framer.failed()) {
                ctx.close();
            }
        }

        @Override
        public void message(SipMessage message) {
            try {
                proxy.onPhoneMessage(message, peer, System.nanoTime());
            } finally {
                message.release();
            }
        }

        @Override
        public void error(SipParseError error, SipMessage partial, boolean isRequest, boolean fatal) {
            try {
                proxy.onPhoneError(error, partial, isRequest, peer, System.nanoTime());
            } finally {
                if (partial != null) {
                    partial.release();
                }
            }
        }

        @Override
        public void ping() {
            ctx.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {'\r', '\n'}));
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (peer != null) {
                connections.remove(peer.address(), ctx.channel());
            }
            if (framer != null) {
                framer.close();
            }
            ctx.fireChannelInactive();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
