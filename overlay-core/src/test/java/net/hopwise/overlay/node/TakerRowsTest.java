package net.hopwise.overlay.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class TakerRowsTest {
    @Test
    void equalRowsAreSharedAndDifferentOnesAreNot() {
        byte[] a = new byte[256];
        Arrays.fill(a, (byte) 7);
        a[42] = 3;
        byte[] b = a.clone();
        byte[] c = a.clone();
        c[43] = 3;
        byte[] first = TakerRows.intern(a);
        assertThat(TakerRows.intern(b)).isSameAs(first);
        assertThat(TakerRows.intern(c)).isNotSameAs(first).containsExactly(c);
        assertThat(first).containsExactly(b);
    }
}
