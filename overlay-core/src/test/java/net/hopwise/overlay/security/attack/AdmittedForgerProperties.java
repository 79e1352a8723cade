package net.hopwise.overlay.security.attack;

import static net.hopwise.overlay.security.attack.SecuredOverlay.MS;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.node.NodeStack;
import net.hopwise.overlay.routing.ExtensionCodec;
import net.hopwise.overlay.routing.ExtensionRecord;
import net.hopwise.overlay.routing.LinkCost;
import net.hopwise.overlay.routing.LinkStateAdvertisement;
import net.hopwise.overlay.routing.LinkStateCodec;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.security.LinkStateSigner;
import net.hopwise.overlay.spi.ModuleContext;
import net.hopwise.overlay.spi.OverlayModule;
import net.hopwise.overlay.wire.DropReason;
import net.jqwik.api.ForAll;
import net.jqwik.api.GenerationMode;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * The admitted forger of the loopback test on virtual time: c, admitted and linked to a, sends a
 * sealed advertisement or module record for another node, claiming any links or content at any newer
 * sequence, signed with its own key, with the victim's signature of another version, or with made-up
 * bytes. Nodes are admitted by a trusted-keys list; every node publishes a record of its own.
 */
class AdmittedForgerProperties {
    enum Signature { FORGERS_OWN, VICTIMS_OF_ANOTHER_VERSION, MADE_UP }

    /** Whose record c forges: a's (the node it reaches), b's (two hops from c), or one nobody admits. */
    enum Victim {
        RECEIVER("a"), THIRD("b"), OUTSIDER("x");

        final String name;

        Victim(String name) {
            this.name = name;
        }
    }

    @AfterContainer
    static void noLeaks() {
        net.hopwise.overlay.testing.LeakDetection.assertNoLeaks();
    }

    @Property(tries = 12, seed = "15")
    void anAdmittedNodeCannotForgeAnotherNodesAdvertisementWhateverItClaimsAndHowItSigns(@ForAll boolean victimAdmitted,
            @ForAll Signature signature, @ForAll @LongRange(min = 1, max = 3_600_000) long ahead,
            @ForAll @IntRange(min = 0, max = 15) int linkSet, @ForAll long seed) {
        AdmittedForgerOnLoopbackTest.Forger forger = new AdmittedForgerOnLoopbackTest.Forger("a");
        try (SecuredOverlay sim = linked(seed, forger)) {
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
            send(sim, forger, Forgeries.linkStateUpdate("c", "a", claim.withSignature(signed)));

            assertThat(a.counters().drops(DropReason.FORGED_LINK_STATE) - refused).as("refused at a").isEqualTo(1);
            assertThat(a.router().database().get(b).orElseThrow().links()).extracting(LinkStateAdvertisement.Link::neighbour)
                    .containsExactly(NodeId.ofName("a"));
            assertThat(a.router().database().get(NodeId.ofName("x"))).isEmpty();
            assertThat(sim.engine("b").router().database().get(NodeId.ofName("x"))).isEmpty();
            assertThat(sim.engine("b").counters().drops(DropReason.FORGED_LINK_STATE)).as("never flooded on").isZero();
            assertThat(a.router().nextHop(b, RoutingMetric.HOPS)).isEqualTo(b);
        }
    }

    /**
     * The same for a module's records (memberships, registrations): whatever content c claims for
     * a, b or an origin nobody admits, a withdrawal included, and however it signs it, a keeps the
     * real records, relays nothing, and counts each forgery of an origin it knows; one whose origin
     * has no advertisement at a waits for it, which never comes, and is never installed. Every victim,
     * signature and kind of claim is tried (random tries left some out); the simulation's seed and how
     * far ahead the claim runs follow from them, and a failure names both.
     */
    @Property(generation = GenerationMode.EXHAUSTIVE)
    void anAdmittedNodeCannotForgeAnotherNodesModuleRecordWhateverItClaimsAndHowItSigns(@ForAll Victim victim,
            @ForAll Signature signature, @ForAll boolean withdrawal) {
        long seed = 15_000 + victim.ordinal() * 100 + signature.ordinal() * 10 + (withdrawal ? 1 : 0);
        long ahead = 1 + new Random(seed).nextInt(3_600_000);
        String sample = "seed " + seed + ", " + ahead + " ms ahead";
        AdmittedForgerOnLoopbackTest.Forger forger = new AdmittedForgerOnLoopbackTest.Forger("a");
        try (SecuredOverlay sim = linked(seed, forger)) {
            NodeStack a = sim.engine("a");
            NodeStack b = sim.engine("b");
            for (int step = 0; step < 1_000 && !(records(a).size() == 3 && records(b).size() == 3); step++) {
                sim.overlay.runFor(5 * MS);
            }
            Map<NodeId, String> real = records(a);
            assertThat(real).as("every node's record at a; " + sample).hasSize(3);
            assertThat(records(b)).as(sample).isEqualTo(real);

            NodeId origin = NodeId.ofName(victim.name);
            // Records share their origin's counter with its advertisements (and x has none: it borrows
            // b's): a second past the advertisement is newer than any record made in this test.
            long base = a.router().database().get(victim == Victim.OUTSIDER ? NodeId.ofName("b") : origin)
                    .orElseThrow().sequence() + 1_000;
            byte[] data = withdrawal ? null : ("member c, forged " + seed).getBytes(StandardCharsets.US_ASCII);
            ExtensionRecord claim = new ExtensionRecord(origin, AuthoritySignedLinkStateTest.KIND, base + ahead, 0, data);
            byte[] signed = switch (signature) {
                case FORGERS_OWN -> new LinkStateSigner("c", SecuredOverlay.keys("c"), sim.trusted, 4)
                        .sign(0, ExtensionCodec.signedContent(claim));
                case VICTIMS_OF_ANOTHER_VERSION -> new LinkStateSigner(victim.name, SecuredOverlay.keys(victim.name),
                        sim.trusted, 4).sign(0, ExtensionCodec.signedContent(new ExtensionRecord(origin,
                        AuthoritySignedLinkStateTest.KIND, base + ahead - 1, 0,
                        ("member " + victim.name).getBytes(StandardCharsets.US_ASCII))));
                case MADE_UP -> {
                    byte[] r = new byte[LinkStateSigner.SIGNATURE_BYTES];
                    new Random(seed).nextBytes(r);
                    yield r;
                }
            };
            long refused = a.counters().drops(DropReason.FORGED_LINK_STATE);
            long deferred = a.router().deferredExtensions();
            send(sim, forger, Forgeries.extensionUpdate("c", "a", claim.withSignature(signed)));

            if (victim == Victim.OUTSIDER) {
                assertThat(a.router().deferredExtensions() - deferred).as("waiting for x's advertisement; " + sample)
                        .isPositive();
                assertThat(a.counters().drops(DropReason.FORGED_LINK_STATE) - refused).as(sample).isZero();
            } else {
                assertThat(a.counters().drops(DropReason.FORGED_LINK_STATE) - refused).as("refused at a; " + sample)
                        .isEqualTo(1);
            }
            assertThat(records(a)).as(sample).isEqualTo(real);
            assertThat(records(b)).as(sample).isEqualTo(real);
            assertThat(b.counters().drops(DropReason.FORGED_LINK_STATE)).as("never flooded on; " + sample).isZero();
        }
    }

    /** a linked to b and to c, the forger above c's link security; every node publishes its record. */
    private static SecuredOverlay linked(long seed, AdmittedForgerOnLoopbackTest.Forger forger) {
        SecuredOverlay sim = new SecuredOverlay(seed, (n, c) -> c, name -> name.equals("c")
                ? both(forger.module(), new AuthoritySignedLinkStateTest.Member(name))
                : new AuthoritySignedLinkStateTest.Member(name));
        for (String n : List.of("a", "b", "c")) {
            sim.overlay.node(n);
        }
        sim.overlay.link("a", "b", MS);
        sim.overlay.link("c", "a", MS);
        sim.overlay.startAll();
        assertThat(sim.awaitRoute("c", "b", 5_000) && sim.awaitRoute("b", "c", 5_000)).isTrue();
        return sim;
    }

    /** Puts {@code frame} in place of c's next hello to a, and runs until a has handled it. */
    private static void send(SecuredOverlay sim, AdmittedForgerOnLoopbackTest.Forger forger, byte[] frame) {
        forger.next.set(frame);
        for (int step = 0; step < 1_000 && forger.sent.get() == 0; step++) {
            sim.overlay.runFor(MS);
        }
        sim.overlay.runFor(200 * MS);
        assertThat(forger.sent.get()).as("the forgery left c, sealed").isEqualTo(1);
    }

    /** The node's records of the test's kind, as text. */
    private static Map<NodeId, String> records(NodeStack node) {
        Map<NodeId, String> out = new HashMap<>();
        node.router().extensions(AuthoritySignedLinkStateTest.KIND)
                .forEach((origin, r) -> out.put(origin, new String(r, StandardCharsets.US_ASCII)));
        return out;
    }

    /** Two modules installed as one, in order: SecuredOverlay puts one module above link security. */
    private static OverlayModule both(OverlayModule first, OverlayModule second) {
        return new OverlayModule() {
            @Override
            public String name() {
                return first.name() + "+" + second.name();
            }

            @Override
            public void install(ModuleContext ctx) {
                first.install(ctx);
                second.install(ctx);
            }
        };
    }
}
