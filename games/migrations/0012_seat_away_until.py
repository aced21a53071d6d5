from django.db import migrations, models
from django.db.models import Max


def away_until_fill(apps, schema_editor):
    Seat = apps.get_model("games", "Seat")
    for seat_id, ends in Seat.objects.annotate(latest=Max("absences__ends_at")).filter(
        latest__isnull=False
    ).values_list("pk", "latest"):
        Seat.objects.filter(pk=seat_id).update(away_until=ends)


class Migration(migrations.Migration):
    dependencies = [("games", "0011_verbose_names")]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="away_until",
            field=models.DateTimeField(blank=True, null=True, verbose_name="away until"),
        ),
        migrations.RunPython(away_until_fill, migrations.RunPython.noop),
        # What happened since a seat's last decision is read from the log itself.
        migrations.RemoveField(model_name="seat", name="last_decision_seq"),
    ]
