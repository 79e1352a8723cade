package net.hopwise.voip.relay;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Two relays' proxies, "a" (caller's site) and "b" (callee's site), on virtual time: the overlay
 * between them is a queue the test pumps, phones are inboxes of what the relays sent them, and
 * media IO is recorded (packets a relay sends over its flow are handed to the other's egress).
 */
final class RelayPair {
    static final InetSocketAddress PHONE_A = new InetSocketAddress("127.0.0.1", 5080);
    static final InetSocketAddress PHONE_B = new InetSocketAddress("127.0.0.1", 5070);
    /** A second phone (of either site): a callee with two phones, or a second caller. */
    static final InetSocketAddress PHONE_C = new InetSocketAddress("127.0.0.1", 5072);
    static final ByteBufAllocator ALLOC = PooledByteBufAllocator.DEFAULT;

    final SipProxy a;
    final SipProxy b;
    final FakeMedia mediaA = new FakeMedia("a", 2000);
    final FakeMedia mediaB = new FakeMedia("b", 3000);
    final Map<String, Deque<String>> inbox = new HashMap<>();
    final Deque<Runnable> overlay = new ArrayDeque<>();
    /** One-way delay the fake overlay stamps on media (send time = arrival - this). */
    long mediaDelayNanos = 10_000_000;
    long now = 1_000_000_000L;

    RelayPair() {
        this(c -> { }, c -> { });
    }

    RelayPair(Consumer<RelayConfig.Builder> tweakA, Consumer<RelayConfig.Builder> tweakB) {
        RelayConfig.Builder ca = RelayConfig.builder().sipAddress(new InetSocketAddress("127.0.0.1", 5060))
                .mediaAddress("127.0.0.10").mediaPorts(30000, 30009).route("prefix:bob=b");
        RelayConfig.Builder cb = RelayConfig.builder().sipAddress(new InetSocketAddress("127.0.0.1", 5062))
                .mediaAddress("127.0.0.20").mediaPorts(30500, 30509).route("prefix:bob=b");
        tweakA.accept(ca);
        tweakB.accept(cb);
        a = new SipProxy("a", ca.build(), 5060, new FakeSignal("a"), mediaA, ALLOC);
        b = new SipProxy("b", cb.build(), 5062, new FakeSignal("b"), mediaB, ALLOC);
        mediaA.self = a;
        mediaB.self = b;
        mediaA.other = b;
        mediaB.other = a;
    }

    SipProxy relay(String name) {
        return name.equals("a") ? a : b;
    }

    void fromPhoneA(String sip) {
        deliver(a, sip, PHONE_A);
    }

    void fromPhoneB(String sip) {
        deliver(b, sip, PHONE_B);
    }

    void deliver(SipProxy relay, String sip, InetSocketAddress from) {
        ByteBuf buf = ALLOC.buffer().writeBytes(sip.getBytes(StandardCharsets.UTF_8));
        try {
            relay.onPhoneDatagram(buf, from, now);
        } finally {
            buf.release();
        }
        pump();
    }

    void pump() {
        Runnable r;
        while ((r = overlay.poll()) != null) {
            r.run();
        }
    }

    /** Advances virtual time and runs both relays' timers. */
    void advance(Duration d) {
        now += d.toNanos();
        a.onTimer(now);
        b.onTimer(now);
        pump();
    }

    Deque<String> inbox(String relay, InetSocketAddress phone) {
        return inbox.computeIfAbsent(relay + " " + phone, k -> new ArrayDeque<>());
    }

    /** The next message relay a sent to phone A; fails when there is none. */
    String atA() {
        String m = inbox("a", PHONE_A).poll();
        if (m == null) {
            throw new AssertionError("phone A received nothing");
        }
        return m;
    }

    /** The next message relay {@code relay} sent to {@code phone}; fails when there is none. */
    String at(String relay, InetSocketAddress phone) {
        String m = inbox(relay, phone).poll();
        if (m == null) {
            throw new AssertionError(phone + " received nothing from relay " + relay);
        }
        return m;
    }

    String atB() {
        String m = inbox("b", PHONE_B).poll();
        if (m == null) {
            throw new AssertionError("phone B received nothing");
        }
        return m;
    }

    boolean idle() {
        return a.state().idle() && b.state().idle();
    }

    private final class FakeSignal implements SignalIo {
        private final String self;

        FakeSignal(String self) {
            this.self = self;
        }

        @Override
        public void toPhone(Hop.Phone to, ByteBuf message) {
            try {
                inbox(self, to.address()).add(message.toString(StandardCharsets.UTF_8));
            } finally {
                message.release();
            }
        }

        @Override
        public void toNode(String node, ByteBuf envelope) {
            byte[] bytes = new byte[envelope.readableBytes()];
            envelope.readBytes(bytes);
            envelope.release();
            SipProxy target = relay(node);
            overlay.add(() -> {
                ByteBuf in = ALLOC.buffer().writeBytes(bytes);
                try {
                    target.onNodeMessage(self, in, now);
                } finally {
                    in.release();
                }
            });
        }
    }

    /** Media IO that binds nothing, numbers overlay ports, and records what each relay sends. */
    final class FakeMedia implements MediaIo {
        final String name;
        final Set<Integer> bound = new HashSet<>();
        final Set<Integer> busy = new HashSet<>();
        final Set<Integer> overlayPorts = new HashSet<>();
        final List<Object[]> toPhone = new ArrayList<>();
        final Map<Integer, Long> flowSequence = new HashMap<>();
        boolean overlayDelivers = true;
        private int nextOverlayPort;
        SipProxy self;
        SipProxy other;

        FakeMedia(String name, int firstOverlayPort) {
            this.name = name;
            this.nextOverlayPort = firstOverlayPort;
        }

        @Override
        public boolean bindPhonePorts(int rtpPort) {
            return !busy.contains(rtpPort) && bound.add(rtpPort);
        }

        @Override
        public void unbindPhonePorts(int rtpPort) {
            bound.remove(rtpPort);
        }

        @Override
        public int openOverlayPort() {
            int p = nextOverlayPort++;
            overlayPorts.add(p);
            return p;
        }

        @Override
        public void closeOverlayPort(int overlayPort) {
            overlayPorts.remove(overlayPort);
        }

        @Override
        public void sendToPhone(int rtpPort, boolean rtcp, InetSocketAddress to, ByteBuf packet) {
            byte[] bytes = new byte[packet.readableBytes()];
            packet.getBytes(packet.readerIndex(), bytes);
            toPhone.add(new Object[] {rtpPort, rtcp, to, bytes});
        }

        @Override
        public boolean sendToNode(int overlayPort, String node, int remotePort, ByteBuf packet) {
            long seq = flowSequence.merge(overlayPort, 1L, Long::sum) - 1;
            if (!overlayDelivers) {
                return true;
            }
            byte[] bytes = new byte[packet.readableBytes()];
            packet.getBytes(packet.readerIndex(), bytes);
            ByteBuf copy = ALLOC.buffer().writeBytes(bytes);
            try {
                other.onNodeMedia(remotePort, copy, seq, now - mediaDelayNanos, false, now);
            } finally {
                copy.release();
            }
            return true;
        }
    }
}
