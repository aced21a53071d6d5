import re

from django.db import migrations, models


def number_the_computer_players(apps, schema_editor) -> None:
    """Computer seats seated before the number was stored: their number is
    the one their stored name ends with ("Einfacher Computer 2"), or else
    their place among the game's computer players of the same level."""
    Seat = apps.get_model("games", "Seat")
    counted: dict[tuple[int, str], int] = {}
    for seat in Seat.objects.exclude(computer="").order_by("game_id", "position"):
        key = (seat.game_id, seat.computer)
        counted[key] = counted.get(key, 0) + 1
        found = re.search(r"(\d+)\s*$", seat.display_name)
        seat.computer_number = int(found.group(1)) if found else counted[key]
        seat.save(update_fields=["computer_number"])


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0017_moderation_steps'),
    ]

    operations = [
        migrations.AddField(
            model_name='seat',
            name='computer_number',
            field=models.PositiveSmallIntegerField(default=0, verbose_name="computer player's number"),
        ),
        migrations.RunPython(number_the_computer_players, migrations.RunPython.noop),
    ]
