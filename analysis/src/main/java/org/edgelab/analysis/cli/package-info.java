/** The {@code report} command of the EdgeLab command line (registered by the cli module). */
package org.edgelab.analysis.cli;
