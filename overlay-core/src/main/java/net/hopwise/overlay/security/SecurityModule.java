package net.hopwise.overlay.security;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.hopwise.overlay.spi.DatagramStage;
import net.hopwise.overlay.spi.DropCounter;
import net.hopwise.overlay.spi.LinkView;
import net.hopwise.overlay.spi.ModuleContext;
import net.hopwise.overlay.spi.OverlayModule;
import net.hopwise.overlay.spi.Stage;
import net.hopwise.overlay.spi.StagePosition;
import net.hopwise.overlay.wire.WireHeader;

/**
 * Authenticated, encrypted links as a module: a datagram stage that runs {@link LinkSecurity}
 * between the socket and the frame stage, sealing every datagram the node sends and opening every
 * one it receives, and a stage that runs its timers. Handshake datagrams leave through {@link
 * ModuleContext#sendDatagram}, to any address (an initiator that moved gets its cookie). Datagrams
 * the node sends before a link has keys wait, a few per link, and leave sealed once the handshake
 * completes. A datagram that opens under a peer's keys must name that peer as its sender, and an
 * authenticated datagram from a new address moves the neighbour there at once.
 *
 * <p>Just over 400 lines: the per-link meters are kept current from the engine's callbacks, which
 * live here with the rest of what the engine reports.
 */
public final class SecurityModule implements OverlayModule {
    /** Datagrams held per link until it has keys: a few hellos' worth; more are dropped and counted. */
    public static final int MAX_HELD = 16;
    /**
     * Verified link-state versions remembered: several per origin of a 1000-node overlay, so that the
     * copies flooding brings again cost a hash, not an Ed25519 verification.
     */
    static final int LINK_STATE_CACHE = 8192;

    private final SecurityConfig config;

    public SecurityModule(SecurityConfig config) {
        this.config = config;
    }

    @Override
    public String name() {
        return "security";
    }

    @Override
    public void install(ModuleContext ctx) {
        if (!ctx.self().equals(net.hopwise.overlay.NodeId.ofName(config.name()))) {
            throw new IllegalArgumentException("link security configured for " + config.name()
                    + " is installed on another node");
        }
        new Installed(ctx).install();
    }

    /** A datagram the node sent before its link had keys, and where it was going. */
    private record Held(InetSocketAddress to, ByteBuf datagram) {}

    /** One node's link security. */
    private final class Installed implements DatagramStage, Stage {
        private final ModuleContext ctx;
        private final Map<DropReason, DropCounter> drops = new EnumMap<>(DropReason.class);
        private final Map<String, ArrayDeque<Held>> held = new HashMap<>();
        /** Links whose held datagrams can leave, and neighbours that proved a new address: acted on once the engine returns. */
        private final List<String> releaseDue = new ArrayList<>();
        private final Map<String, InetSocketAddress> movesDue = new HashMap<>();
        private final LinkSecurity engine;
        // Reused for every datagram: the node's thread is the only one that runs a stage.
        // The datagram path's scratch arrays, each held by the view that hands its bytes to the engine
        // (a second view of the sealing array marks the plaintext inside it), so that no buffer object
        // is made per datagram; an array and its views are made again only when a datagram outgrows it.
        private ByteBuffer plainView = ByteBuffer.allocate(2048);
        private ByteBuffer openedView = ByteBuffer.allocate(2048);
        private ByteBuffer sealedView = ByteBuffer.allocate(2048);
        private ByteBuffer toSealView = sealedView.duplicate();
        private final Map<String, Long> peerIds = new HashMap<>();

        Installed(ModuleContext ctx) {
            this.ctx = ctx;
            for (DropReason r : DropReason.values()) {
                drops.put(r, ctx.dropReason(r.reason()));
            }
            this.engine = new LinkSecurity(config, this::handshakeDatagram, r -> drops.get(r).increment(),
                    new LinkSecurity.Listener() {
                        @Override
                        public void established(String peer, InetSocketAddress address, boolean rekey) {
                            meters(peer);
                            if (held.containsKey(peer)) {
                                releaseDue.add(peer);
                            }
                        }

                        @Override
                        public void addressChanged(String peer, InetSocketAddress from, InetSocketAddress to) {
                            movesDue.put(peer, to);
                        }

                        @Override
                        public void refusalCounted(String peer) {
                            // At once, not at the next timer (minutes away on a quiet link), and for a link
                            // that never had keys too; cheaply, as a flood of forgeries calls it per datagram.
                            PeerMeters m = meters.get(peer);
                            if (m == null) {
                                meters(peer);
                            } else {
                                Peer p = engine.peer(peer);
                                m.replays = p.replays;
                                m.forgeries = p.forgeries;
                                m.rejections = p.rejections;
                            }
                        }
                    });
        }

        /** Per-link figures for meters, published for the registry's threads. */
        private final Map<String, PeerMeters> meters = new HashMap<>();

        private final class PeerMeters {
            volatile long handshakes;
            volatile long rekeys;
            volatile int authenticated;
            volatile long replays;
            volatile long forgeries;
            volatile long rejections;
        }

        private void meters(String peer) {
            PeerMeters m = meters.computeIfAbsent(peer, p -> {
                PeerMeters n = new PeerMeters();
                var registry = ctx.meterRegistry();
                String node = config.name();
                io.micrometer.core.instrument.FunctionCounter.builder("hopwise.security.handshakes", n, x -> x.handshakes)
                        .tag("node", node).tag("peer", p).description("completed link handshakes, rekeys included")
                        .register(registry);
                io.micrometer.core.instrument.FunctionCounter.builder("hopwise.security.rekeys", n, x -> x.rekeys)
                        .tag("node", node).tag("peer", p).register(registry);
                io.micrometer.core.instrument.Gauge.builder("hopwise.security.authenticated", n, x -> x.authenticated)
                        .tag("node", node).tag("peer", p).description("1 while the link has keys").register(registry);
                io.micrometer.core.instrument.FunctionCounter.builder("hopwise.security.link.drops", n, x -> x.replays)
                        .tag("node", node).tag("peer", p).tag("reason", "replay").register(registry);
                io.micrometer.core.instrument.FunctionCounter.builder("hopwise.security.link.drops", n, x -> x.forgeries)
                        .tag("node", node).tag("peer", p).tag("reason", "forged").register(registry);
                io.micrometer.core.instrument.FunctionCounter.builder("hopwise.security.link.drops", n, x -> x.rejections)
                        .tag("node", node).tag("peer", p).tag("reason", "rejected").register(registry);
                return n;
            });
            LinkSecurity.PeerStatus st = engine.status(peer, ctx.nowNanos());
            if (st != null) {
                m.handshakes = st.handshakes();
                m.rekeys = st.rekeys();
                m.authenticated = st.authenticated() ? 1 : 0;
                m.replays = st.replays();
                m.forgeries = st.forgeries();
                m.rejections = st.rejections();
            }
        }

        void install() {
            // Every origin's link state is signed with its identity key (under an authority, with its
            // certificate inside the signature) and verified before use, so that an admitted node cannot
            // forge another's links or records.
            LinkStateSigner signer = LinkStateSigner.of(config, LINK_STATE_CACHE);
            if (signer.canSign()) {
                ctx.signLinkState(signer.spi());
            }
            io.micrometer.core.instrument.FunctionCounter.builder("hopwise.security.cookie.replies", engine,
                    LinkSecurity::cookieReplies).tag("node", config.name())
                    .description("INITs without a valid cookie, answered with one and nothing kept: a handshake flood shows here")
                    .register(ctx.meterRegistry());
            ctx.addDatagramStage("security", this);
            ctx.addStage("security-timer", StagePosition.last(), this);
            for (LinkView link : ctx.links()) {
                engine.addPeer(link.name(), link.address());
            }
            // A neighbour added at runtime may start its handshake before this node sends it anything.
            ctx.addListener(event -> {
                if (event.kind() == net.hopwise.overlay.NodeEvent.Kind.NEIGHBOUR_ADDED) {
                    LinkView link = findLink(event.peer());
                    if (link != null) {
                        engine.addPeer(link.name(), link.address());
                    }
                } else if (event.kind() == net.hopwise.overlay.NodeEvent.Kind.NEIGHBOUR_REMOVED) {
                    engine.removePeer(event.peer());
                    ArrayDeque<Held> q = held.remove(event.peer());
                    if (q != null) {
                        q.forEach(h -> h.datagram.release());
                    }
                }
            });
            Revocations revocations = new Revocations(ctx, engine, signer, this::afterEngine);
            ctx.provide(SecureLinks.class, new SecureLinks(engine, ctx::execute, ctx::nowNanos,
                    () -> ctx.links().stream().map(LinkView::name).toList(), signer.canSign() ? signer : null,
                    reason -> drops.get(reason).count(), revocations));
        }

        @Override
        public int overhead() {
            return LinkSecurity.overhead();
        }

        @Override
        public ByteBuf inbound(InetSocketAddress from, ByteBuf datagram, long nowNanos) {
            int n = datagram.readableBytes();
            // The socket's buffers are direct; the ciphers run fastest over arrays (see Aead), so the
            // datagram is copied once into an array and opened from there into a second one (the JDK
            // would open overlapping arrays through a copy of its own).
            ByteBuffer in = plainView(n);
            datagram.getBytes(datagram.readerIndex(), in.array(), 0, n);
            ByteBuffer o = openedView(n);
            String peer = engine.receive(from, in.limit(n), o, nowNanos);
            afterEngine();
            if (peer == null) {
                return null;
            }
            ByteBuf out = openedInto(datagram, o.array(), o.position());
            if (!sentBy(peer, out)) {
                // An admitted node's own keys must not carry another node's datagrams: a hello that
                // names a neighbour as its sender would otherwise move that neighbour to this address.
                if (out != datagram) {
                    out.release();
                }
                engine.forgedSender(peer);
                drops.get(DropReason.FORGED_SENDER).increment();
                return null;
            }
            return out;
        }

        /**
         * The opened datagram: written back over the sealed one it came in, which the plaintext, shorter
         * by the header and tag, always fits. That buffer is the node's to rewrite (the forwarding stage
         * restamps received datagrams in place too; an impairment's duplicate has bytes of its own), and
         * the chain then runs on it exactly as on a plaintext node's datagram, without a buffer taken
         * from the allocator and given back per datagram on the receiving loop. Only a read-only
         * datagram gets a heap buffer of its own.
         */
        private ByteBuf openedInto(ByteBuf datagram, byte[] plain, int length) {
            if (datagram.isReadOnly()) {
                return ctx.allocator().heapBuffer(Math.max(length, 1)).writeBytes(plain, 0, length);
            }
            int at = datagram.readerIndex();
            datagram.setBytes(at, plain, 0, length);
            datagram.writerIndex(at + length);
            return datagram;
        }

        /** Whether the opened datagram names {@code peer}, whose keys opened it, as its sender. */
        private boolean sentBy(String peer, ByteBuf opened) {
            if (opened.readableBytes() < WireHeader.LENGTH) {
                return false; // too short for a header: nothing in it names a sender
            }
            Long id = peerIds.get(peer);
            if (id == null) {
                id = net.hopwise.overlay.NodeId.ofName(peer).value(); // a hash: computed once a peer
                peerIds.put(peer, id);
            }
            return WireHeader.sender(opened) == id;
        }

        @Override
        public ByteBuf outbound(LinkView link, InetSocketAddress address, ByteBuf datagram, long nowNanos) {
            engine.addPeer(link.name(), link.address());
            ByteBuf sealed = null;
            try {
                sealed = seal(link.name(), datagram, nowNanos);
            } finally {
                if (sealed == null) {
                    hold(link.name(), address, datagram); // released here or once the link has keys
                }
            }
            afterEngine();
            return sealed;
        }

        /**
         * The sealed datagram of {@code plain}, which it then owns ({@code plain} itself or a new buffer,
         * {@code plain} released); null when the link has no keys, {@code plain} still the caller's.
         */
        private ByteBuf seal(String peer, ByteBuf plain, long now) {
            int n = plain.readableBytes();
            // A datagram the node sends is often a composite (a header and a shared body), whose NIO view
            // would be a merged copy anyway: it is gathered once into an array right behind the room for
            // the sealing header, sealed there in place, and written once into the direct buffer the
            // socket takes without a further copy.
            int length = n + LinkSecurity.overhead();
            ByteBuffer o = sealedView(length);
            byte[] buf = o.array();
            plain.getBytes(plain.readerIndex(), buf, SecureWire.DATA_HEADER_BYTES, n);
            ByteBuffer in = toSealView.clear().limit(SecureWire.DATA_HEADER_BYTES + n).position(SecureWire.DATA_HEADER_BYTES);
            if (!engine.seal(peer, in, o, now)) {
                return null;
            }
            ByteBuf out;
            if (InPlace.reusable(plain, length)) {
                out = plain;
                out.writerIndex(out.readerIndex());
            } else {
                out = ctx.allocator().ioBuffer(length);
                plain.release();
            }
            out.writeBytes(buf, 0, o.position());
            return out;
        }

        private ByteBuffer plainView(int n) {
            if (plainView.capacity() < n) {
                plainView = ByteBuffer.allocate(n);
            }
            return plainView.clear();
        }

        private ByteBuffer openedView(int n) {
            if (openedView.capacity() < n) {
                openedView = ByteBuffer.allocate(n);
            }
            return openedView.clear();
        }

        private ByteBuffer sealedView(int n) {
            if (sealedView.capacity() < n) {
                sealedView = ByteBuffer.allocate(n);
                toSealView = sealedView.duplicate();
            }
            return sealedView.clear();
        }

        private void hold(String peer, InetSocketAddress to, ByteBuf datagram) {
            ArrayDeque<Held> q = held.computeIfAbsent(peer, p -> new ArrayDeque<>());
            if (q.size() >= MAX_HELD) {
                q.poll().datagram.release();
                drops.get(DropReason.NO_SESSION).increment();
            }
            q.add(new Held(to, datagram));
        }

        private void handshakeDatagram(InetSocketAddress to, byte[] datagram) {
            // Handshake arrays are never changed once made (a resend sends the same array), so the
            // socket may read the array itself.
            ctx.sendDatagram(this, to, Unpooled.wrappedBuffer(datagram));
        }

        /**
         * Acts on what the engine reported while it ran, once it has returned (so that it is never
         * entered again from inside itself): moves neighbours that proved a new address, and sends the
         * datagrams held for links that now have keys, sealed, past the stages nearer the socket.
         */
        private void afterEngine() {
            if (!movesDue.isEmpty()) {
                for (Map.Entry<String, InetSocketAddress> m : movesDue.entrySet()) {
                    LinkView link = findLink(m.getKey());
                    if (link != null) {
                        ctx.moveNeighbour(link, m.getValue());
                    }
                }
                movesDue.clear();
            }
            while (!releaseDue.isEmpty()) {
                String peer = releaseDue.remove(releaseDue.size() - 1);
                ArrayDeque<Held> q = held.get(peer);
                while (q != null && !q.isEmpty()) {
                    Held h = q.peek();
                    ByteBuf sealed = seal(peer, h.datagram, ctx.nowNanos());
                    if (sealed == null) {
                        break; // keys gone again: they wait for the next handshake
                    }
                    q.poll();
                    ctx.sendDatagram(this, h.to, sealed);
                }
                if (q != null && q.isEmpty()) {
                    held.remove(peer);
                }
            }
        }

        private LinkView findLink(String name) {
            for (LinkView link : ctx.links()) {
                if (link.name().equals(name)) {
                    return link;
                }
            }
            return null;
        }

        @Override
        public boolean takes(int type) {
            return false; // a stage for the timers only
        }

        @Override
        public long nextDeadlineNanos() {
            return engine.nextDeadlineNanos();
        }

        @Override
        public void onTimer(long nowNanos) {
            engine.onTimer(nowNanos);
            for (String peer : meters.keySet()) {
                meters(peer);
            }
            afterEngine();
        }

        @Override
        public void close() {
            held.values().forEach(q -> q.forEach(h -> h.datagram.release()));
            held.clear();
        }
    }
}
