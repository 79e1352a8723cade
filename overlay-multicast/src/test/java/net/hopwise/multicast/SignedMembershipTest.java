package net.hopwise.multicast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.node.NodeStack;
import net.hopwise.overlay.routing.RoutingConfig;
import net.hopwise.overlay.spi.LinkStateSigner;
import net.hopwise.overlay.spi.ModuleContext;
import net.hopwise.overlay.spi.OverlayModule;
import net.hopwise.overlay.testing.VirtualOverlay;
import org.junit.jupiter.api.Test;

/**
 * Where link state is signed a record has less room (a signature's), and a bucket's groups are
 * counted against that room: a join that would not fit is refused at the call, and every accepted one
 * is published and reaches the other nodes.
 */
class SignedMembershipTest {
    private static final long MS = 1_000_000L;

    /** A test signer of 255-byte "signatures" (the content's hash repeated) and a probe of the record room. */
    static final class Signing implements OverlayModule {
        interface Room {
            int maxExtensionBytes();
        }

        @Override
        public String name() {
            return "test-signing";
        }

        @Override
        public void install(ModuleContext context) {
            context.signLinkState(new LinkStateSigner() {
                @Override
                public int maxSignatureBytes() {
                    return 255;
                }

                @Override
                public byte[] sign(byte[] content) {
                    byte[] s = new byte[255];
                    Arrays.fill(s, (byte) Arrays.hashCode(content));
                    return s;
                }

                @Override
                public boolean verify(NodeId origin, String originName, byte[] content, byte[] signature) {
                    return Arrays.equals(sign(content), signature);
                }
            });
            context.provide(Room.class, context::maxExtensionBytes);
        }
    }

    @Test
    void aJoinIsCountedAgainstTheRoomASignedRecordHas() {
        // The default 1024 bytes fit an update unsigned (127 groups a bucket), not beside a 255-byte signature.
        try (VirtualOverlay overlay = new VirtualOverlay(3, b -> b.module(new Signing()).module(new MulticastModule()))) {
            overlay.node("a");
            overlay.node("b");
            overlay.link("a", "b", 5 * MS);
            overlay.startAll();
            overlay.runFor(20_000 * MS);
            int room = stack(overlay, "a").module(Signing.Room.class).maxExtensionBytes();
            int fits = MembershipRecords.capacity(room);
            assertThat(fits).as("the signature takes room").isLessThan(MembershipRecords.capacity(1024));
            List<String> sameBucket = new ArrayList<>();
            for (int i = 0; sameBucket.size() <= fits; i++) {
                if (MembershipRecords.bucket(GroupId.ofName("g" + i), MembershipRecords.buckets(RoutingConfig.DEFAULT_MAX_EXTENSIONS_PER_ORIGIN)) == 0) {
                    sameBucket.add("g" + i);
                }
            }
            Multicast a = stack(overlay, "a").module(Multicast.class);
            for (int i = 0; i < fits; i++) {
                a.join(sameBucket.get(i), 1, m -> {});
            }
            assertThatThrownBy(() -> a.join(sameBucket.get(fits), 1, m -> {}))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("maxExtensionBytes");
            overlay.runFor(2_000 * MS);
            Multicast b = stack(overlay, "b").module(Multicast.class);
            for (int i = 0; i < fits; i++) {
                assertThat(b.memberNodes(sameBucket.get(i))).as(sameBucket.get(i)).containsExactly(NodeId.ofName("a"));
            }
        }
    }

    private static NodeStack stack(VirtualOverlay overlay, String node) {
        NodeStack stack = overlay.engine(node);
        stack.advance(overlay.now());
        return stack;
    }
}
