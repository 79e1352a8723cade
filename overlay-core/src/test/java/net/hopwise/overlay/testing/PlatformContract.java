package net.hopwise.overlay.testing;

import static org.assertj.core.api.Assertions.assertThat;

import net.hopwise.overlay.NodeId;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

/**
 * Each module extends this once to prove that JUnit Jupiter and jqwik run side by side on its one
 * JUnit Platform: the Jupiter test sees both engines, and the jqwik property runs in the same launch.
 */
public abstract class PlatformContract {
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
