package net.hopwise.overlay.voip;

import static org.assertj.core.api.Assertions.assertThat;

import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.testing.TestPlatform;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

/** Proves that JUnit Jupiter and jqwik run side by side on one JUnit Platform in this module. */
class TestPlatformTest {
    @Test
    void bothEnginesAreOnThePlatform() {
        assertThat(TestPlatform.engineIds()).contains("junit-jupiter", "jqwik");
    }

    @Property(tries = 200)
    void nodeIdsAreStableFunctionsOfTheName(@ForAll @AlphaChars @StringLength(min = 1, max = 64) String name) {
        assertThat(NodeId.ofName(name)).isEqualTo(NodeId.ofName(new String(name)));
        assertThat(NodeId.ofName(name).value()).isNotZero();
    }
}
