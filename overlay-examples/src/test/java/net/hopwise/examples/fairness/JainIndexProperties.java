package net.hopwise.examples.fairness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.Size;

class JainIndexProperties {
    @Property
    void liesBetweenOneOverNAndOne(@ForAll @Size(min = 1, max = 8) List<@DoubleRange(min = 0, max = 1e4) Double> x) {
        double[] xs = x.stream().mapToDouble(Double::doubleValue).toArray();
        double j = JainIndex.of(xs);
        if (x.stream().allMatch(v -> v == 0)) {
            assertThat(j).isNaN();
        } else {
            assertThat(j).isBetween(1.0 / xs.length - 1e-12, 1 + 1e-12);
        }
    }

    @Property
    void doesNotDependOnTheUnit(@ForAll @DoubleRange(min = 0.01, max = 100) double a,
            @ForAll @DoubleRange(min = 0.01, max = 100) double b, @ForAll @DoubleRange(min = 0.01, max = 1000) double k) {
        assertThat(JainIndex.of(k * a, k * b)).isCloseTo(JainIndex.of(a, b), within(1e-9));
    }

    @Example
    void equalSharesAreFairAndOneFlowTakingAllIsOneOverN() {
        assertThat(JainIndex.of(7, 7)).isEqualTo(1.0);
        assertThat(JainIndex.of(10, 0)).isEqualTo(0.5);
        assertThat(JainIndex.of(5, 0, 0, 0)).isEqualTo(0.25);
    }

    @Example
    void twoToOneGivesNineTenths() {
        // (2 + 1)^2 / (2 (4 + 1)) = 9 / 10
        assertThat(JainIndex.of(2, 1)).isCloseTo(0.9, within(1e-12));
    }

    @Example
    void refusesNothingAndNegativeOrInfiniteRates() {
        assertThatThrownBy(JainIndex::of).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> JainIndex.of(1, -1)).hasMessageContaining("non-negative");
        assertThatThrownBy(() -> JainIndex.of(1, Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> JainIndex.of(Double.POSITIVE_INFINITY)).isInstanceOf(IllegalArgumentException.class);
    }
}
