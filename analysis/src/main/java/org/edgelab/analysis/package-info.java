/**
 * Analysis of experiment results: loads {@code results.csv} files into Tablesaw tables ({@link org.edgelab.analysis.ResultSet}),
 * summarises them by any dimension with latency from merged HdrHistogram logs ({@link org.edgelab.analysis.Summary}),
 * compares builds ({@link org.edgelab.analysis.Ratios}) and puts results beside the published figures
 * ({@link org.edgelab.analysis.PublishedFigures}). Depends on result files only, never on the runner.
 */
package org.edgelab.analysis;
