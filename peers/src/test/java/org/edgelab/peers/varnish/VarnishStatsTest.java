package org.edgelab.peers.varnish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import org.edgelab.experiments.target.ServerCounters;
import org.junit.jupiter.api.Test;

/** varnishstat's JSON mapped to EdgeLab's counters, in both the 7.x layout and the older flat one. */
class VarnishStatsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void mapsMainCountersAndSumsEveryBackendsBodyBytes() throws Exception {
        String counters = """
                "MAIN.client_req": {"value": 10}, "MAIN.cache_hit": {"value": 7}, "MAIN.cache_miss": {"value": 3},
                "MAIN.s_resp_bodybytes": {"value": 5000},
                "VBE.boot.origin.beresp_bodybytes": {"value": 1500}, "VBE.reload_1.origin.beresp_bodybytes": {"value": 100},
                "VBE.boot.origin.beresp_hdrbytes": {"value": 999}""";
        ServerCounters expected = new ServerCounters(10, 7, 3, 5000, 1600);
        assertThat(VarnishStats.counters(JSON.readTree("{\"version\": 1, \"counters\": {" + counters + "}}"))).isEqualTo(expected);
        assertThat(VarnishStats.counters(JSON.readTree("{\"timestamp\": \"x\", " + counters + "}"))).isEqualTo(expected);
    }

    @Test
    void aMissingCounterIsAnErrorNotAZero() {
        assertThatThrownBy(() -> VarnishStats.counters(JSON.readTree("{\"counters\": {\"MAIN.client_req\": {\"value\": 1}}}")))
                .isInstanceOf(IOException.class).hasMessageContaining("MAIN.cache_hit");
    }
}
