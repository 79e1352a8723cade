package net.hopwise.overlay.security.attack;

import static net.hopwise.overlay.security.attack.SecuredOverlay.MS;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.node.NodeStack;
import net.hopwise.overlay.routing.LinkCost;
import net.hopwise.overlay.routing.LinkStateAdvertisement;
import net.hopwise.overlay.routing.LinkStateCodec;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.security.LinkStateSigner;
import net.hopwise.overlay.wire.DropReason;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * The admitted forger of the loopback test on virtual time: c, admitted and linked to a, sends a
 * sealed advertisement for b, or for a node nobody admits, claiming any links at any newer
 * sequence, signed with its own key, with b's signature of another version, or with made-up bytes.
 */
class AdmittedForgerProperties {
    enum Signature { FORGERS_OWN, VICTIMS_OF_ANOTHER_VERSION, MADE_UP }

    @AfterContainer
    static void noLeaks() {
        net.hopwise.overlay.testing.LeakDetection.assertNoLeaks();
    }

    @Property(tries = 12, seed = "15")
    void anAdmittedNodeCannotForgeAnotherNodesAdvertisementWhateverItClaimsAndHowItSigns(@ForAll boolean victimAdmitted,
            @ForAll Signature signature, @ForAll @LongRange(min = 1, max = 3_600_000) long ahead,
            @ForAll @IntRange(min = 0, max = 15) int linkSet, @ForAll long seed) {
        AdmittedForgerOnLoopbackTest.Forger forger = new AdmittedForgerOnLoopbackTest.Forger("a");
        try (SecuredOverlay sim = new SecuredOverlay(seed, (n, c) -> c, name -> name.equals("c") ? forger : null)) {
            for (String n : List.of("a", "b", "c")) {
                sim.overlay.node(n);
            }
            sim.overlay.link("a", "b", MS);
            sim.overlay.link("c", "a", MS);
            sim.overlay.startAll();
            assertThat(sim.awaitRoute("c", "b", 5_000) && sim.awaitRoute("b", "c", 5_000)).isTrue();
            NodeStack a = sim.engine("a");
            NodeId b = NodeId.ofName("b");
            LinkStateAdvertisement real = a.router().database().get(b).orElseThrow();

            String victim = victimAdmitted ? "b" : "x";
            List<LinkStateAdvertisement.Link> links = new ArrayList<>();
            List<String> candidates = List.of("a", "b", "c", "x");
            for (int i = 0; i < candidates.size(); i++) {
                if ((linkSet & 1 << i) != 0 && !candidates.get(i).equals(victim)) {
                    links.add(new LinkStateAdvertisement.Link(NodeId.ofName(candidates.get(i)), new LinkCost(1, 0)));
                }
            }
            LinkStateAdvertisement claim = new LinkStateAdvertisement(NodeId.ofName(victim), victim,
                    real.sequence() + ahead, 0, links);
            byte[] signed = switch (signature) {
                case FORGERS_OWN -> new LinkStateSigner("c", SecuredOverlay.keys("c"), sim.trusted, 4)
                        .sign(0, LinkStateCodec.signedContent(claim));
                case VICTIMS_OF_ANOTHER_VERSION -> real.signature();
                case MADE_UP -> {
                    byte[] r = new byte[LinkStateSigner.SIGNATURE_BYTES];
                    new Random(seed).nextBytes(r);
                    yield r;
                }
            };
            long refused = a.counters().drops(DropReason.FORGED_LINK_STATE);
            forger.next.set(Forgeries.linkStateUpdate("c", "a", claim.withSignature(signed)));
            for (int step = 0; step < 1_000 && forger.sent.get() == 0; step++) {
                sim.overlay.runFor(MS);
            }
            sim.overlay.runFor(200 * MS);
            assertThat(forger.sent.get()).as("the forgery left c, sealed").isEqualTo(1);

            assertThat(a.counters().drops(DropReason.FORGED_LINK_STATE) - refused).as("refused at a").isEqualTo(1);
            assertThat(a.router().database().get(b).orElseThrow().links()).extracting(LinkStateAdvertisement.Link::neighbour)
                    .containsExactly(NodeId.ofName("a"));
            assertThat(a.router().database().get(NodeId.ofName("x"))).isEmpty();
            assertThat(sim.engine("b").router().database().get(NodeId.ofName("x"))).isEmpty();
            assertThat(sim.engine("b").counters().drops(DropReason.FORGED_LINK_STATE)).as("never flooded on").isZero();
            assertThat(a.router().nextHop(b, RoutingMetric.HOPS)).isEqualTo(b);
        }
    }
}
