/** Writers of analysis tables: Markdown tables and a self-contained HTML report with inline SVG plots. */
package org.edgelab.analysis.report;
