package net.hopwise.overlay.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.spi.DropCounter;
import net.hopwise.overlay.spi.Frame;
import net.hopwise.overlay.spi.FrameSink;
import net.hopwise.overlay.spi.LinkStateExtension;
import net.hopwise.overlay.spi.LinkView;
import net.hopwise.overlay.spi.ModuleContext;
import net.hopwise.overlay.spi.OverlayModule;
import net.hopwise.overlay.spi.PerLink;
import net.hopwise.overlay.spi.Stage;
import net.hopwise.overlay.spi.StagePosition;
import net.hopwise.overlay.wire.DropReason;
import net.hopwise.overlay.wire.WireHeader;
import org.junit.jupiter.api.Test;

/** A module built on the SPI alone, installed on two nodes on virtual time. */
class ModuleSpiTest {
    private static final int PING = 70;
    private static final int UNCLAIMED = 72;
    private static final int KIND = 5;

    /** What the test module offers applications. */
    interface Echo {
        void ping(String neighbour, String text);

        List<String> heard();

        int pingsFrom(String neighbour);

        LinkStateExtension records();

        Map<NodeId, String> seenRecords();

        ModuleContext context();
    }

    /** Answers "ping:x" with "pong:x" on the link it came from; counts pings per link. */
    static final class EchoModule implements OverlayModule {
        @Override
        public String name() {
            return "echo";
        }

        @Override
        public void install(ModuleContext ctx) {
            ctx.registerPacketType(PING, "echo");
            DropCounter empty = ctx.dropReason("echo_empty");
            PerLink<int[]> pings = ctx.perLink(link -> new int[1]);
            List<String> heard = new ArrayList<>();
            Map<NodeId, String> seen = new HashMap<>();
            LinkStateExtension records = ctx.linkStateExtension(KIND,
                    (origin, record) -> {
                        if (record == null) {
                            seen.remove(origin);
                        } else {
                            seen.put(origin, new String(record, StandardCharsets.UTF_8));
                        }
                    });
            ctx.addStage("echo", StagePosition.last(), new Stage() {
                @Override
                public void onFrame(Frame frame, FrameSink next) {
                    if (frame.type() != PING) {
                        next.accept(frame);
                        return;
                    }
                    ByteBuf body = frame.body();
                    if (!body.isReadable()) {
                        empty.increment();
                        return;
                    }
                    String text = body.toString(StandardCharsets.UTF_8);
                    heard.add(text);
                    if (text.startsWith("ping:")) {
                        pings.get(frame.link())[0]++;
                        ctx.send(frame.link(), PING, Unpooled.copiedBuffer("pong:" + text.substring(5),
                                StandardCharsets.UTF_8));
                    }
                }
            });
            ctx.provide(Echo.class, new Echo() {
                @Override
                public void ping(String neighbour, String text) {
                    ctx.execute(() -> {
                        LinkView link = ctx.link(NodeId.ofName(neighbour));
                        ctx.fanOut(List.of(link), PING, Unpooled.copiedBuffer(text, StandardCharsets.UTF_8));
                    });
                }

                @Override
                public List<String> heard() {
                    return heard;
                }

                @Override
                public int pingsFrom(String neighbour) {
                    int[] count = pings.peek(ctx.link(NodeId.ofName(neighbour)));
                    return count == null ? 0 : count[0];
                }

                @Override
                public LinkStateExtension records() {
                    return records;
                }

                @Override
                public Map<NodeId, String> seenRecords() {
                    return seen;
                }

                @Override
                public ModuleContext context() {
                    return ctx;
                }
            });
        }
    }

    private static TwoNodeWire wire() {
        return new TwoNodeWire(b -> b.module(new EchoModule()));
    }

    @Test
    void aModuleStageSitsWhereItAskedAndItsApiIsOffered() {
        try (TwoNodeWire w = wire()) {
            assertThat(w.a.stageNames()).containsExactly("frame", "link", "routing", "reliable-link", "real-time",
                    "forwarding", "session", "delivery", "echo", "unclaimed");
            assertThat(w.a.module(Echo.class)).isNotNull();
            assertThat(w.a.module(Runnable.class)).isNull();
        }
    }

    @Test
    void packetsOfAModuleTypeReachItsStageAndItsAnswerComesBack() {
        try (TwoNodeWire w = wire()) {
            w.runFor(3_000 * TwoNodeWire.MS);
            Echo a = w.a.module(Echo.class);
            Echo b = w.b.module(Echo.class);
            a.ping("b", "ping:1");
            a.ping("b", "ping:2");
            w.runFor(10 * TwoNodeWire.MS);
            assertThat(b.heard()).containsExactly("ping:1", "ping:2");
            assertThat(a.heard()).containsExactly("pong:1", "pong:2");
            assertThat(b.pingsFrom("a")).isEqualTo(2);
            assertThat(a.pingsFrom("b")).isZero();
        }
    }

    @Test
    void aMalformedModulePacketIsCountedUnderTheModulesOwnReason() {
        try (TwoNodeWire w = wire()) {
            w.runFor(3_000 * TwoNodeWire.MS);
            w.a.module(Echo.class).ping("b", "");
            w.runFor(10 * TwoNodeWire.MS);
            NodeCounters c = w.b.counters();
            assertThat(c.moduleDrops()).singleElement().satisfies(d -> {
                assertThat(d.reason()).isEqualTo("echo_empty");
                assertThat(d.count()).isEqualTo(1);
            });
            assertThat(c.totalDrops()).isGreaterThanOrEqualTo(1);
        }
    }

    @Test
    void aModuleTypeNoModuleClaimedIsAnUnknownTypeDrop() {
        try (TwoNodeWire w = wire()) {
            w.runFor(3_000 * TwoNodeWire.MS);
            long before = w.b.counters().drops(DropReason.UNKNOWN_TYPE);
            ByteBuf datagram = Unpooled.buffer();
            WireHeader.write(datagram, UNCLAIMED, 0, 3, NodeId.ofName("a").value(), NodeId.ofName("b").value(), 1);
            datagram.writeBytes(new byte[] {1, 2, 3});
            w.inject(TwoNodeWire.A, TwoNodeWire.B, datagram);
            w.runFor(5 * TwoNodeWire.MS);
            assertThat(w.b.counters().drops(DropReason.UNKNOWN_TYPE)).isEqualTo(before + 1);
            assertThat(w.b.module(Echo.class).heard()).isEmpty();
        }
    }

    @Test
    void linkStateRecordsOfAModuleFloodToTheOtherNodeAndGoWhenWithdrawn() {
        try (TwoNodeWire w = wire()) {
            w.runFor(3_000 * TwoNodeWire.MS);
            long recomputations = w.b.router().recomputations();
            Echo a = w.a.module(Echo.class);
            a.context().execute(() -> a.records().publish("served-here".getBytes(StandardCharsets.UTF_8)));
            w.runFor(50 * TwoNodeWire.MS);
            Echo b = w.b.module(Echo.class);
            assertThat(b.seenRecords()).containsEntry(NodeId.ofName("a"), "served-here");
            assertThat(b.records().records()).containsKey(NodeId.ofName("a"));
            assertThat(w.b.router().recomputations()).isEqualTo(recomputations);
            a.context().execute(() -> a.records().withdraw());
            w.runFor(50 * TwoNodeWire.MS);
            assertThat(b.seenRecords()).doesNotContainKey(NodeId.ofName("a"));
        }
    }

    @Test
    void theRouteViewAnswersAsRoutingDoes() {
        try (TwoNodeWire w = wire()) {
            w.runFor(3_000 * TwoNodeWire.MS);
            ModuleContext ctx = w.b.module(Echo.class).context();
            NodeId a = NodeId.ofName("a");
            NodeId b = NodeId.ofName("b");
            assertThat(ctx.routes().nextHop(a, RoutingMetric.HOPS)).isEqualTo(a);
            assertThat(ctx.routes().path(a, RoutingMetric.HOPS)).containsExactly(b, a);
            assertThat(ctx.routes().tree(a, RoutingMetric.HOPS)).containsEntry(a, a).containsEntry(b, a);
            assertThat(ctx.routes().linkCost(b, a, RoutingMetric.HOPS)).isEqualTo(1.0);
            assertThat(ctx.routes().nameOf(a)).isEqualTo("a");
            assertThat(ctx.routes().find("a")).contains(a);
            assertThat(ctx.routes().find("b")).contains(b);
            assertThat(ctx.routes().find("nobody")).isEmpty();
            assertThat(ctx.links()).extracting(LinkView::name).containsExactly("a");
            assertThat(ctx.link(a).cost(RoutingMetric.HOPS)).isEqualTo(1.0);
            assertThat(ctx.link(a).flow()).isEqualTo(new LinkView.LinkFlow(0, true, 0));
        }
    }

    @Test
    void aLinkCarriedByATransportOfAModulesOwnKeepsWorkingAndLeavesTheSocketAlone() {
        try (TwoNodeWire w = wire()) {
            w.runFor(3_000 * TwoNodeWire.MS);
            ModuleContext a = w.a.module(Echo.class).context();
            ModuleContext b = w.b.module(Echo.class).context();
            java.util.ArrayDeque<ByteBuf> toB = new java.util.ArrayDeque<>();
            java.util.ArrayDeque<ByteBuf> toA = new java.util.ArrayDeque<>();
            boolean[] full = {false};
            a.setTransport(a.link(NodeId.ofName("b")), new net.hopwise.overlay.spi.LinkTransport() {
                @Override
                public void transmit(ByteBuf datagram) {
                    toB.add(datagram);
                }

                @Override
                public boolean writable() {
                    return !full[0];
                }
            });
            b.setTransport(b.link(NodeId.ofName("a")), new net.hopwise.overlay.spi.LinkTransport() {
                @Override
                public void transmit(ByteBuf datagram) {
                    toA.add(datagram);
                }

                @Override
                public boolean writable() {
                    return true;
                }
            });
            int udpBefore = w.sentByA.get(TwoNodeWire.B).size();
            for (int ms = 0; ms < 3_000; ms++) {
                w.runFor(TwoNodeWire.MS);
                for (ByteBuf d; (d = toB.poll()) != null; d.release()) {
                    b.receive(b.link(NodeId.ofName("a")), d);
                }
                for (ByteBuf d; (d = toA.poll()) != null; d.release()) {
                    a.receive(a.link(NodeId.ofName("b")), d);
                }
            }
            assertThat(w.sentByA.get(TwoNodeWire.B)).hasSize(udpBefore);
            assertThat(a.link(NodeId.ofName("b")).status()).isEqualTo(net.hopwise.overlay.link.LinkStatus.UP);
            assertThat(w.a.send(1, NodeId.ofName("b"), 9, Unpooled.wrappedBuffer(new byte[] {1}), RoutingMetric.HOPS,
                    w.now())).isEqualTo(net.hopwise.overlay.SendResult.ACCEPTED);
            full[0] = true;
            assertThat(a.link(NodeId.ofName("b")).writable()).isFalse();
            assertThat(w.a.send(1, NodeId.ofName("b"), 9, Unpooled.wrappedBuffer(new byte[] {1}), RoutingMetric.HOPS,
                    w.now())).isEqualTo(net.hopwise.overlay.SendResult.BACK_PRESSURED);
            toB.forEach(ByteBuf::release);
        }
    }

    @Test
    void registrationMistakesAreClearErrors() {
        assertThat(installError(ctx -> ctx.registerPacketType(10, "core"))).contains("outside the module range 64-127");
        assertThat(installError(ctx -> {
            ctx.registerPacketType(80, "one");
            ctx.registerPacketType(80, "two");
        })).contains("packet type 80 is taken");
        assertThat(installError(ctx -> ctx.addStage("x", StagePosition.after("nope"), new Stage() { })))
                .contains("no stage named nope");
        assertThat(installError(ctx -> ctx.addStage("x", StagePosition.before("frame"), new Stage() { })))
                .contains("nothing goes before the frame stage");
        assertThat(installError(ctx -> ctx.addStage("link", StagePosition.last(), new Stage() { })))
                .contains("a stage named link is already in the chain");
        assertThat(installError(ctx -> ctx.dropReason("malformed"))).contains("one of the node's own");
        assertThat(installError(ctx -> {
            ctx.linkStateExtension(9, null);
            ctx.linkStateExtension(9, null);
        })).contains("kind 9 is taken");
    }

    @Test
    void sendingATypeTheModuleDidNotRegisterIsRefused() {
        try (TwoNodeWire w = wire()) {
            w.runFor(3_000 * TwoNodeWire.MS);
            ModuleContext ctx = w.a.module(Echo.class).context();
            ByteBuf body = Unpooled.copiedBuffer("x", StandardCharsets.UTF_8);
            assertThatThrownBy(() -> ctx.send(ctx.link(NodeId.ofName("b")), 90, body))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("did not register");
            assertThat(body.refCnt()).isZero();
        }
    }

    @Test
    void aCompositeBodyArrivesWholeAndOneStillHeldElsewhereIsLeftAsItWas() {
        try (TwoNodeWire w = wire()) {
            w.runFor(3_000 * TwoNodeWire.MS);
            ModuleContext ctx = w.a.module(Echo.class).context();
            // Room for the node's header: it goes in front as a component.
            ByteBuf alone = Unpooled.compositeBuffer(4).addComponents(true, text("ping:"), text("alone"));
            // No room: wrapped.
            ByteBuf full = Unpooled.compositeBuffer(2).addComponents(true, text("ping:"), text("full"));
            // Held by the caller too (a cached packet sent again): wrapped, and unchanged for its holder.
            ByteBuf kept = Unpooled.compositeBuffer(4).addComponents(true, text("ping:"), text("kept"));
            kept.retain();
            ctx.execute(() -> {
                LinkView link = ctx.link(NodeId.ofName("b"));
                ctx.send(link, PING, alone);
                ctx.send(link, PING, full);
                ctx.send(link, PING, kept);
            });
            w.runFor(10 * TwoNodeWire.MS);
            assertThat(w.b.module(Echo.class).heard()).containsExactly("ping:alone", "ping:full", "ping:kept");
            assertThat(kept.refCnt()).isEqualTo(1);
            assertThat(kept.toString(StandardCharsets.UTF_8)).isEqualTo("ping:kept");
            assertThat(((io.netty.buffer.CompositeByteBuf) kept).numComponents()).isEqualTo(2);
            kept.release();
        }
    }

    private static ByteBuf text(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.UTF_8);
    }

    @Test
    void sendingATypeAnotherModuleRegisteredIsRefused() {
        ModuleContext[] other = new ModuleContext[1];
        OverlayModule quiet = new OverlayModule() {
            @Override
            public String name() {
                return "quiet";
            }

            @Override
            public void install(ModuleContext context) {
                context.registerPacketType(91, "quiet");
                if (context.self().equals(NodeId.ofName("a"))) {
                    other[0] = context;
                }
            }
        };
        try (TwoNodeWire w = new TwoNodeWire(b -> b.module(new EchoModule()).module(quiet))) {
            w.runFor(3_000 * TwoNodeWire.MS);
            ModuleContext ctx = other[0];
            LinkView link = ctx.link(NodeId.ofName("b"));
            ByteBuf echos = Unpooled.copiedBuffer("x", StandardCharsets.UTF_8);
            assertThatThrownBy(() -> ctx.send(link, PING, echos))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("did not register");
            assertThat(echos.refCnt()).isZero();
            assertThat(ctx.send(link, 91, Unpooled.copiedBuffer("y", StandardCharsets.UTF_8))).isTrue();
        }
    }

    private static String installError(Consumer<ModuleContext> install) {
        OverlayModule bad = new OverlayModule() {
            @Override
            public String name() {
                return "bad";
            }

            @Override
            public void install(ModuleContext context) {
                install.accept(context);
            }
        };
        try (TwoNodeWire w = new TwoNodeWire(b -> b.module(bad))) {
            throw new AssertionError("the module installed");
        } catch (IllegalStateException e) {
            assertThat(e.getMessage()).startsWith("module bad failed to install on node a");
            return e.getMessage();
        }
    }
}
