package net.hopwise.overlay.security;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/** Link security engines of several nodes on a virtual wire: every datagram is seen and can be held. */
final class SecureNet {
    static final long NOW0 = 1_000_000_000L;
    static final long WALL = 1_800_000_000L;

    record Datagram(InetSocketAddress from, InetSocketAddress to, byte[] bytes) {}

    final class Node {
        final String name;
        final InetSocketAddress address;
        final NodeKeys keys;
        final Map<DropReason, Long> drops = new EnumMap<>(DropReason.class);
        final List<String> events = new ArrayList<>();
        final List<byte[]> delivered = new ArrayList<>();
        LinkSecurity engine;

        Node(String name, int port, NodeKeys keys) {
            this.name = name;
            this.address = new InetSocketAddress("127.0.0.1", port);
            this.keys = keys;
        }

        void start(SecurityConfig config) {
            engine = new LinkSecurity(config, (to, d) -> wire.add(new Datagram(address, to, d)),
                    r -> drops.merge(r, 1L, Long::sum), new LinkSecurity.Listener() {
                        @Override
                        public void established(String peer, InetSocketAddress at, boolean rekey) {
                            events.add((rekey ? "rekeyed " : "established ") + peer);
                        }

                        @Override
                        public void addressChanged(String peer, InetSocketAddress from, InetSocketAddress to) {
                            events.add("moved " + peer + " " + to.getPort());
                        }
                    });
        }

        long drops(DropReason r) {
            return drops.getOrDefault(r, 0L);
        }

        long totalDrops() {
            return drops.values().stream().mapToLong(Long::longValue).sum();
        }

        /** Seals and puts on the wire; false when no session (a handshake started). */
        boolean send(Node to, byte[] payload) {
            ByteBuffer out = ByteBuffer.allocate(payload.length + LinkSecurity.overhead());
            if (!engine.seal(to.name, ByteBuffer.wrap(payload), out, now)) {
                return false;
            }
            wire.add(new Datagram(address, engine.address(to.name), out.array()));
            return true;
        }

        void receive(InetSocketAddress from, byte[] bytes) {
            ByteBuffer out = ByteBuffer.allocate(bytes.length);
            String peer = engine.receive(from, ByteBuffer.wrap(bytes), out, now);
            if (peer != null) {
                delivered.add(java.util.Arrays.copyOf(out.array(), out.position()));
            }
        }
    }

    final ArrayDeque<Datagram> wire = new ArrayDeque<>();
    final List<Datagram> seen = new ArrayList<>();
    final Map<InetSocketAddress, Node> byAddress = new HashMap<>();
    final Map<String, byte[]> trusted = new HashMap<>();
    long now = NOW0;

    Node node(String name, int port) {
        Node n = new Node(name, port, NodeKeys.generate());
        byAddress.put(n.address, n);
        trusted.put(name, n.keys.identityPublic());
        return n;
    }

    SecurityConfig config(Node n) {
        Map<String, List<byte[]>> keys = new HashMap<>();
        trusted.forEach((k, v) -> keys.put(k, List.of(v)));
        return SecurityConfig.of(n.name, n.keys, null, new TrustedKeys(keys)).withWallClock(() -> WALL);
    }

    static void link(Node a, Node b) {
        a.engine.addPeer(b.name, b.address);
        b.engine.addPeer(a.name, a.address);
    }

    /** Delivers what is on the wire (and what that produces) except what {@code lose} takes. */
    int run(Predicate<Datagram> lose) {
        int n = 0;
        while (!wire.isEmpty()) {
            Datagram d = wire.poll();
            seen.add(d);
            n++;
            Node to = byAddress.get(d.to());
            if (to != null && !lose.test(d)) {
                to.receive(d.from(), d.bytes());
            }
        }
        return n;
    }

    int run() {
        return run(d -> false);
    }

    void advance(Duration d, Node... nodes) {
        long until = now + d.toNanos();
        while (true) {
            long next = Long.MAX_VALUE;
            for (Node n : nodes) {
                next = Math.min(next, n.engine.nextDeadlineNanos());
            }
            if (next > until) {
                break;
            }
            now = Math.max(now, next);
            for (Node n : nodes) {
                if (n.engine.nextDeadlineNanos() <= now) {
                    n.engine.onTimer(now);
                }
            }
            run();
        }
        now = until;
    }
}
