<?php // blog
