package net.hopwise.overlay.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.LinkCost;
import net.hopwise.overlay.routing.LinkStateAdvertisement;
import net.hopwise.overlay.routing.LinkStateCodec;
import net.hopwise.overlay.routing.LinkStateUpdate;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.spi.LinkStateSigner;
import net.hopwise.overlay.spi.ModuleContext;
import net.hopwise.overlay.spi.OverlayModule;
import net.hopwise.overlay.testing.Ed25519Signers;
import net.hopwise.overlay.testing.VirtualOverlay;
import net.hopwise.overlay.wire.DropReason;
import net.hopwise.overlay.wire.PacketType;
import net.hopwise.overlay.wire.WireHeader;
import org.junit.jupiter.api.Test;

/**
 * Nodes whose link state is signed through the module SPI: they converge as unsigned nodes do, and
 * an admitted node's forgery of another node's links is refused everywhere it arrives.
 */
class SignedLinkStateTest {
    static final long MS = 1_000_000L;
    final Ed25519Signers keys = new Ed25519Signers(11);
    final Map<String, Long> signatures = new HashMap<>();

    /** Signs with the node's own key, counting signatures per node. */
    final class Signing implements OverlayModule {
        @Override
        public String name() {
            return "signing";
        }

        @Override
        public void install(ModuleContext context) {
            String name = context.routes().nameOf(context.self());
            LinkStateSigner inner = keys.signerOf(name);
            context.signLinkState(new LinkStateSigner() {
                @Override
                public int maxSignatureBytes() {
                    return inner.maxSignatureBytes();
                }

                @Override
                public byte[] sign(byte[] content) {
                    signatures.merge(name, 1L, Long::sum);
                    return inner.sign(content);
                }

                @Override
                public boolean verify(NodeId origin, String originName, byte[] content, byte[] signature) {
                    return inner.verify(origin, originName, content, signature);
                }
            });
        }
    }

    @Test
    void signedNodesConvergeAndAnAdmittedNodeCannotForgeAnotherNodesLinks() {
        try (VirtualOverlay o = new VirtualOverlay(3, b -> b.module(new Signing()))) {
            for (String n : List.of("a", "b", "c", "m")) {
                o.node(n);
            }
            o.link("a", "b", 5 * MS);
            o.link("b", "c", 5 * MS);
            o.link("m", "a", 5 * MS);
            o.startAll();
            o.runFor(3_000 * MS);
            NodeStack a = o.engine("a");
            assertThat(a.router().nextHop(NodeId.ofName("c"), RoutingMetric.HOPS)).isEqualTo(NodeId.ofName("b"));
            assertThat(o.engine("m").router().nextHop(NodeId.ofName("c"), RoutingMetric.HOPS)).isEqualTo(NodeId.ofName("a"));
            assertThat(signatures).containsKeys("a", "b", "c", "m");
            long cSequence = a.router().database().get(NodeId.ofName("c")).orElseThrow().sequence();

            // m, admitted, claims that c's only link leads to m: c's traffic would be drawn to m.
            LinkStateAdvertisement claim = new LinkStateAdvertisement(NodeId.ofName("c"), "c", cSequence + 1, 0,
                    List.of(new LinkStateAdvertisement.Link(NodeId.ofName("m"), new LinkCost(1, 0))));
            LinkStateAdvertisement forged = claim.withSignature(keys.signerOf("m").sign(LinkStateCodec.signedContent(claim)));
            ByteBuf datagram = Unpooled.buffer(WireHeader.MAX_DATAGRAM);
            WireHeader.write(datagram, PacketType.LINK_STATE_UPDATE, 0, NodeId.ofName("m").value(),
                    NodeId.ofName("a").value(), 1_000_000);
            LinkStateCodec.encodeUpdate(new LinkStateUpdate(List.of(forged)), datagram);
            WireHeader.finish(datagram, 0);
            o.inject("m", "a", datagram);
            o.runFor(1_000 * MS);

            assertThat(a.counters().drops(DropReason.FORGED_LINK_STATE)).isEqualTo(1);
            assertThat(a.router().database().get(NodeId.ofName("c")).orElseThrow().links())
                    .extracting(LinkStateAdvertisement.Link::neighbour).containsExactly(NodeId.ofName("b"));
            assertThat(o.engine("b").router().database().get(NodeId.ofName("c")).orElseThrow().links())
                    .as("never flooded on").extracting(LinkStateAdvertisement.Link::neighbour)
                    .doesNotContain(NodeId.ofName("m"));
            assertThat(o.engine("b").counters().drops(DropReason.FORGED_LINK_STATE)).as("a did not relay it").isZero();
            assertThat(a.router().nextHop(NodeId.ofName("c"), RoutingMetric.HOPS)).isEqualTo(NodeId.ofName("b"));
        }
    }

    @Test
    void onlyOneModuleSignsAndOnlyWhileTheNodeIsBuilt() {
        OverlayModule second = new OverlayModule() {
            @Override
            public String name() {
                return "second";
            }

            @Override
            public void install(ModuleContext context) {
                context.signLinkState(keys.signerOf("x"));
            }
        };
        NodeConfig config = NodeConfig.builder("a").module(new Signing()).module(second).build();
        assertThatThrownBy(() -> new NodeStack(config, io.netty.buffer.PooledByteBufAllocator.DEFAULT,
                new NodeOutput() {
                    @Override
                    public void transmit(java.net.InetSocketAddress to, ByteBuf datagram) {
                        datagram.release();
                    }

                    @Override
                    public boolean writable() {
                        return true;
                    }

                    @Override
                    public void event(net.hopwise.overlay.NodeEvent event) {}
                }, 0, 0))
                .hasMessageContaining("already signed by module signing");
    }
}
