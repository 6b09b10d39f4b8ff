//! `bench --plot`: the ladder as SVG, one panel per operation.

use batchcrypto::ladder::Row;
use batchcrypto::registry::OpSpec;

/// One panel per op: µs per item against N, log-log, a line per backend,
/// the crossover (first N where gpu beats cpu) as a vertical line.
pub(super) fn plot(
    path: &std::path::Path,
    ops: &[&'static OpSpec],
    rows: &[Row],
    crossover: &serde_json::Value,
    machine: &serde_json::Value,
) -> Result<(), Box<dyn std::error::Error>> {
    use plotters::prelude::*;
    let root = SVGBackend::new(path, (900, 380 * ops.len().max(1) as u32)).into_drawing_area();
    root.fill(&WHITE)?;
    let panels = root.split_evenly((ops.len().max(1), 1));
    let colors = [RED, BLUE, GREEN, MAGENTA, CYAN, BLACK];
    for (op, panel) in ops.iter().zip(panels) {
        let name = op.row_name();
        let mine: Vec<&Row> = rows.iter().filter(|r| r.op == name).collect();
        let per_item = |r: &Row| r.median_s / r.n.max(1) as f64 * 1e6;
        let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, 0f64, f64::MAX, 0f64);
        for r in &mine {
            x0 = x0.min(r.n as f64);
            x1 = x1.max(r.n as f64);
            y0 = y0.min(per_item(r));
            y1 = y1.max(per_item(r));
        }
        if mine.is_empty() {
            continue;
        }
        let title = format!(
            "{name} — {} ({} cores), {}",
            machine["cpu"].as_str().unwrap_or("?"),
            machine["cores"],
            machine["adapters"][0].as_str().unwrap_or("no GPU")
        );
        let mut chart = ChartBuilder::on(&panel)
            .caption(title, ("sans-serif", 16))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d((x0 / 1.5..x1 * 1.5).log_scale(), (y0 / 1.5..y1 * 1.5).log_scale())?;
        chart
            .configure_mesh()
            .x_desc("batch size N")
            .y_desc("µs per item (median)")
            .draw()?;
        let mut backends: Vec<&str> = Vec::new();
        for r in &mine {
            if !backends.contains(&r.backend.as_str()) {
                backends.push(&r.backend);
            }
        }
        for (i, backend) in backends.iter().enumerate() {
            let color = colors[i % colors.len()];
            let points: Vec<(f64, f64)> = mine
                .iter()
                .filter(|r| r.backend == *backend)
                .map(|r| (r.n as f64, per_item(r)))
                .collect();
            chart
                .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))?
                .label(*backend)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2)));
            chart.draw_series(points.iter().map(|&p| Circle::new(p, 3, color.filled())))?;
        }
        if let Some(n) = crossover[name.as_str()].as_u64() {
            let n = n as f64;
            chart
                .draw_series(LineSeries::new(
                    vec![(n, y0 / 1.4), (n, y1 * 1.4)],
                    BLACK.stroke_width(1),
                ))?
                .label(format!("crossover N* = {n}"))
                .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()?;
    }
    root.present()?;
    Ok(())
}
